import AFGetRequest
import AFGetSupport
import CLibXML2
import CurlCore
import Glibc

/// Reads a Metalink v4 document (RFC 5854) with libxml2, the network, DTDs and entity
/// substitution off: a document is bytes a stranger wrote. Everything afget would act on is
/// checked here, so that a document is used whole or refused whole, naming the line and the
/// cause, before any transfer.
public enum MetalinkReader {
    /// The namespace of Metalink v4; Metalink 3's older one is not read.
    static let namespace = "urn:ietf:params:xml:ns:metalink"
    /// Larger than any real document (a 100 GiB file in 256 KiB pieces has 400 000 piece
    /// hashes, about 40 MiB of XML): beyond it the file is not a Metalink afget reads.
    public static let largestDocument = 64 << 20
    /// RFC 5854 §4.2.17: priorities run from 1 (most preferred) to 999999; none is the last.
    private static let lowestPriority = 999_999

    /// The files `bytes` describes, in document order. `name` names the document in failures.
    public static func files(in bytes: [UInt8], name: String) throws(ItemFailure) -> [MetalinkFile] {
        guard bytes.count <= largestDocument else {
            throw ItemFailure(item: name, TransferFailure(.input(.documentTooLarge(limit: largestDocument))))
        }
        guard !bytes.isEmpty else { throw refusal(name, line: 0, .documentEmpty) }
        xmlInitParser()
        LibXML2Errors.silence()
        xmlResetLastError()
        let options = XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(1, buffer.count)) {
                xmlReadMemory($0, Int32(buffer.count), nil, nil, Int32(options))
            }
        }
        guard let document else {
            let error = xmlGetLastError()
            let line = error.map { Int($0.pointee.line) } ?? 0
            let said = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unreadable"
            throw refusal(name, line: line, .notWellFormedXML(said.trimmingWhitespace()))
        }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document), Element(root).isMetalink(named: "metalink") else {
            throw refusal(name, line: 1, .notMetalink4(namespace: namespace))
        }
        var files: [MetalinkFile] = []
        for element in Element(root).children where element.isMetalink(named: "file") {
            do {
                files.append(try file(element))
            } catch {
                throw ItemFailure(item: "\(name):\(element.line)", error)
            }
        }
        guard !files.isEmpty else { throw refusal(name, line: Element(root).line, .describesNoFile) }
        return files
    }

    private static func refusal(_ name: String, line: Int, _ cause: InputFailure) -> ItemFailure {
        ItemFailure(item: line > 0 ? "\(name):\(line)" : name, TransferFailure(.input(cause)))
    }

    /// One `<file>`: its name, size, hashes, pieces and URLs, each checked.
    private static func file(_ element: Element) throws(TransferFailure) -> MetalinkFile {
        guard let name = element.attribute("name") else { throw TransferFailure(.input(.fileWithoutName)) }
        try InputList.checkRelative(name, "name")
        var size: Int64?
        var hashes: [Checksum] = []
        var pieces: PieceHashes?
        var sources: [(priority: Int, url: (text: String, parsed: CurlURL))] = []
        var unfetchable: [String] = []
        for child in element.children {
            switch child.metalinkName {
            case "size":
                guard size == nil else { throw TransferFailure(.input(.elementTwice("size"))).noting(.at(name)) }
                size = try count(child.text, "<size>", of: name)
            case "hash":
                if let hash = try checksum(type: child.attribute("type"), hex: child.text, of: name) { hashes.append(hash) }
            case "pieces":
                guard pieces == nil else { throw TransferFailure(.input(.elementTwice("pieces"))).noting(.at(name)) }
                pieces = try self.pieces(child, of: name)
            case "url":
                let priority = try child.attribute("priority").map { text throws(TransferFailure) in
                    let value = try count(text, "priority", of: name)
                    guard (1...Int64(lowestPriority)).contains(value) else {
                        throw TransferFailure(.input(.priorityOutOfRange(text, lowest: lowestPriority))).noting(.at(name))
                    }
                    return Int(value)
                }
                let url = child.text.trimmingWhitespace()
                if let parsed = try? RequestSerializer.parseURL(url, for: .download) {
                    sources.append((priority ?? lowestPriority, (url, parsed)))
                } else {
                    unfetchable.append(url)
                }
            default:
                continue  // metaurl, identity, version, description, ...: nothing afget acts on
            }
        }
        guard !sources.isEmpty else {
            let given: InputFailure = unfetchable.isEmpty ? .noURL : .noFetchableURL(unfetchable)
            throw TransferFailure(.input(given)).noting(.at(name))
        }
        if let pieces, let size {
            guard pieces.fit(total: size) else {
                throw TransferFailure(.input(.piecesDoNotFit(count: pieces.hashes.count, size: size, length: pieces.length)))
                    .noting(.at(name))
            }
        }
        // Stable: sources of one priority keep the document's order.
        let ordered = sources.enumerated().sorted { ($0.element.priority, $0.offset) < ($1.element.priority, $1.offset) }
        return MetalinkFile(
            name: name, line: element.line, size: size, hashes: hashes.sorted { $0.algorithm.hexLength > $1.algorithm.hexLength },
            pieces: pieces, urls: ordered.map(\.element.url))
    }

    /// `<pieces length="N" type="T"><hash>HEX</hash>...</pieces>`; nil for a type afget does not know.
    private static func pieces(_ element: Element, of name: String) throws(TransferFailure) -> PieceHashes? {
        let length = try count(element.attribute("length") ?? "", "<pieces> length", of: name)
        guard length > 0 else { throw TransferFailure(.input(.piecesOfLengthZero)).noting(.at(name)) }
        let type = element.attribute("type") ?? ""
        var hashes: [String] = []
        for child in element.children where child.metalinkName == "hash" {
            guard let hash = try checksum(type: type, hex: child.text, of: name) else { return nil }
            hashes.append(hash.hex)
        }
        guard let algorithm = DigestAlgorithm(rawValue: type.lowercased()) else { return nil }
        return PieceHashes(length: length, algorithm: algorithm, hashes: hashes)
    }

    /// A hash of a type afget knows, checked as `checksum=` is; nil for another type (sha-384).
    private static func checksum(type: String?, hex: String, of name: String) throws(TransferFailure) -> Checksum? {
        guard let type = type?.lowercased(), DigestAlgorithm(rawValue: type) != nil else { return nil }
        do {
            return try Checksum.parse("\(type)=\(hex.trimmingWhitespace())")
        } catch {
            throw error.noting(.at(name))
        }
    }

    /// Digits alone, as an Int64; `what` of the file `name` ("<size>").
    private static func count(_ text: String, _ what: String, of name: String) throws(TransferFailure) -> Int64 {
        let digits = text.trimmingWhitespace()
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int64(digits) else {
            throw TransferFailure(.input(.notACount(what: what, text: digits))).noting(.at(name))
        }
        return value
    }
}

/// An element of a parsed document, read in place: no copy of the tree is made.
private struct Element {
    let node: xmlNodePtr

    init(_ node: xmlNodePtr) {
        self.node = node
    }

    var line: Int { Int(xmlGetLineNo(node)) }

    /// Its local name when it is in the Metalink namespace, else nil.
    var metalinkName: String? {
        guard let namespace = node.pointee.ns?.pointee.href,
            String(cString: namespace) == MetalinkReader.namespace
        else { return nil }
        return String(cString: node.pointee.name)
    }

    func isMetalink(named name: String) -> Bool { metalinkName == name }

    /// Its child elements, in order.
    var children: [Element] {
        var found: [Element] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { found.append(Element(current)) }
            child = current.pointee.next
        }
        return found
    }

    /// Its text: the text and CDATA children, joined.
    var text: String { Self.text(from: node.pointee.children) }

    /// The text of `first` and the nodes after it (an element's or an attribute's children);
    /// an entity reference is left out, never expanded.
    private static func text(from first: xmlNodePtr?) -> String {
        var bytes: [UInt8] = []
        var child = first
        while let current = child {
            if current.pointee.type == XML_TEXT_NODE || current.pointee.type == XML_CDATA_SECTION_NODE,
                let content = current.pointee.content
            {
                var cursor = content
                while cursor.pointee != 0 {
                    bytes.append(cursor.pointee)
                    cursor += 1
                }
            }
            child = current.pointee.next
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// An attribute without a namespace, as text.
    func attribute(_ name: String) -> String? {
        var attribute = node.pointee.properties
        while let current = attribute {
            if current.pointee.ns == nil, String(cString: current.pointee.name) == name {
                return Self.text(from: current.pointee.children)
            }
            attribute = current.pointee.next
        }
        return nil
    }
}

extension MetalinkReader {
    /// Reads and parses a Metalink file.
    public static func load(_ path: String) throws(ItemFailure) -> [MetalinkFile] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ItemFailure(item: path, TransferFailure(.input(.documentUnreadable(errno: errno))))
        }
        defer { close(descriptor) }
        switch readAll(descriptor, limit: largestDocument) {
        case .success(let bytes):
            return try files(in: bytes, name: path)
        case .failure(.system(let code)):
            throw ItemFailure(item: path, TransferFailure(.input(.documentUnreadable(errno: code))))
        case .failure(.tooLarge):
            throw ItemFailure(item: path, TransferFailure(.input(.documentTooLarge(limit: largestDocument))))
        }
    }
}
