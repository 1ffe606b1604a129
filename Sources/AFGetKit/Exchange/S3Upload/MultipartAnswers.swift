/// What a store answers to a multipart upload's requests, read with libxml2 (`S3XML`). S3
/// names each answer's root `…Result`; moto, which serializes them as its other services'
/// answers, `…Response`: either is taken.
enum MultipartAnswers {
    private static func root(_ xml: borrowing S3XML, _ answer: String) -> S3XML.Element? {
        xml.root(named: answer + "Result") ?? xml.root(named: answer + "Response")
    }

    /// CreateMultipartUpload's `<InitiateMultipartUploadResult><UploadId>`; nil when absent.
    static func uploadID(_ body: [UInt8]) -> String? {
        guard let xml = S3XML(body), let root = root(xml, "InitiateMultipartUpload"),
            let id = root.text(of: "UploadId")?.trimmingWhitespace(), !id.isEmpty
        else { return nil }
        return id
    }

    /// A page of ListParts' `<ListPartsResult>`: its parts and, when truncated, the marker of
    /// the next page.
    struct PartsPage: Equatable {
        let parts: [ListedPart]
        let nextMarker: Int?
    }

    /// Nil for a body that is no ListPartsResult, a part without number, ETag or size, or a
    /// truncated page whose marker does not move on (asking again would never end).
    static func partsPage(_ body: [UInt8], after marker: Int?) -> PartsPage? {
        guard let xml = S3XML(body), let root = root(xml, "ListParts") else { return nil }
        var parts: [ListedPart] = []
        for element in root.children(named: "Part") {
            guard let number = element.text(of: "PartNumber").flatMap({ Int($0.trimmingWhitespace()) }),
                let tag = element.text(of: "ETag")?.trimmingWhitespace(), !tag.isEmpty,
                let size = element.text(of: "Size").flatMap({ Int64($0.trimmingWhitespace()) })
            else { return nil }
            parts.append(ListedPart(number: number, entityTag: tag, size: size))
        }
        guard root.text(of: "IsTruncated")?.trimmingWhitespace() == "true" else {
            return PartsPage(parts: parts, nextMarker: nil)
        }
        guard let next = root.text(of: "NextPartNumberMarker").flatMap({ Int($0.trimmingWhitespace()) }),
            next > (marker ?? 0)
        else { return nil }
        return PartsPage(parts: parts, nextMarker: next)
    }

    /// CompleteMultipartUpload's `<CompleteMultipartUploadResult><ETag>`; nil otherwise (S3
    /// may answer 200 and then an `<Error>` in the body: the caller reads that first).
    static func completedEntityTag(_ body: [UInt8]) -> String? {
        guard let xml = S3XML(body), let root = root(xml, "CompleteMultipartUpload"),
            let tag = root.text(of: "ETag")?.trimmingWhitespace(), !tag.isEmpty
        else { return nil }
        return tag
    }

    /// CompleteMultipartUpload's body: every part's number, ETag and SHA-256, in order. Written,
    /// not parsed: the values are escaped for XML text.
    static func completionBody(_ parts: [(number: Int, part: S3UploadRecord.SentPart)]) -> [UInt8] {
        var text = #"<?xml version="1.0" encoding="UTF-8"?>"#
        text += #"<CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/">"#
        for (number, part) in parts {
            text += "<Part><PartNumber>\(number)</PartNumber><ETag>\(escaped(part.entityTag))</ETag>"
            text += "<ChecksumSHA256>\(escaped(part.sha256))</ChecksumSHA256></Part>"
        }
        text += "</CompleteMultipartUpload>"
        return Array(text.utf8)
    }

    /// `text` as XML character data.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
