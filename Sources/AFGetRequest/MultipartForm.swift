import AFGetSupport

/// A `multipart/form-data` body (RFC 7578): text fields and file fields, streamed from disk
/// when sent. Field names and file names are escaped as browsers do (`"` as %22, CR as %0D,
/// LF as %0A), so no name can end its quoted string or start a header of its own.
public struct MultipartForm: Sendable, Equatable {
    public enum Field: Sendable, Equatable {
        case text(name: String, value: String)
        /// `filename` is what the server is told; `path` is where the bytes are read from.
        case file(name: String, path: String, filename: String, contentType: String)
        /// Standard input as a file field (streamed; its length is unknown, so sent chunked).
        case standardInput(name: String, filename: String)
    }

    public var fields: [Field]
    public let boundary: String

    public init(fields: [Field] = [], boundary: String = MultipartForm.randomBoundary()) {
        self.fields = fields
        self.boundary = boundary
    }

    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// A file field named after the file, its type guessed from the extension.
    public static func fileField(name: String, path: String) -> Field {
        let filename = splitPath(path).name
        return .file(name: name, path: path, filename: filename, contentType: MediaType.guess(forFileName: filename))
    }

    public var body: RequestBody {
        var parts: [BodyPart] = []
        for field in fields {
            switch field {
            case .text(let name, let value):
                parts.append(
                    .bytes(
                        Array(
                            (partStart + "Content-Disposition: form-data; name=\"\(Self.escape(name))\"\r\n\r\n"
                                + value + "\r\n").utf8)))
            case .file(let name, let path, let filename, let contentType):
                parts.append(
                    .bytes(
                        Array(
                            (partStart + "Content-Disposition: form-data; name=\"\(Self.escape(name))\"; "
                                + "filename=\"\(Self.escape(filename))\"\r\nContent-Type: \(contentType)\r\n\r\n").utf8)))
                parts.append(.file(path: path))
                parts.append(.bytes(Array("\r\n".utf8)))
            case .standardInput(let name, let filename):
                parts.append(
                    .bytes(
                        Array(
                            (partStart + "Content-Disposition: form-data; name=\"\(Self.escape(name))\"; "
                                + "filename=\"\(Self.escape(filename))\"\r\nContent-Type: application/octet-stream\r\n\r\n").utf8)
                    ))
                parts.append(.standardInput)
                parts.append(.bytes(Array("\r\n".utf8)))
            }
        }
        parts.append(.bytes(Array("--\(boundary)--\r\n".utf8)))
        return .parts(parts)
    }

    private var partStart: String { "--\(boundary)\r\n" }

    static func escape(_ name: String) -> String {
        var escaped = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": escaped += "%22"
            case "\r": escaped += "%0D"
            case "\n": escaped += "%0A"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    public static func randomBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let hex = (0..<3).map { _ in String(generator.next() as UInt64, radix: 16) }.joined()
        return "afget-" + hex
    }
}

/// Content types guessed from file names, for multipart file fields.
public enum MediaType {
    private static let byExtension = [
        "txt": "text/plain", "html": "text/html", "htm": "text/html", "css": "text/css", "csv": "text/csv",
        "json": "application/json", "xml": "application/xml", "pdf": "application/pdf", "zip": "application/zip",
        "gz": "application/gzip", "tar": "application/x-tar", "png": "image/png", "jpg": "image/jpeg",
        "jpeg": "image/jpeg", "gif": "image/gif", "svg": "image/svg+xml", "webp": "image/webp",
        "mp4": "video/mp4", "mp3": "audio/mpeg", "js": "text/javascript", "wasm": "application/wasm",
    ]

    public static func guess(forFileName name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "application/octet-stream" }
        return byExtension[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }
}
