import AFGetSupport

/// One of curl's body options as typed: `-d`/`--data`, `--data-raw`, `--data-binary`,
/// `--data-urlencode` or `--json DATA`. A request's pieces make its body as curl makes it, in
/// the order typed: joined with `&`, except that a `--json` piece is added as it is (so
/// `--json '{"a":' --json '1}'` is one document).
public struct DataPiece: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// `-d`: TEXT, or `@FILE` (`@-`: standard input) with its CR and LF bytes removed.
        case data
        /// `--data-raw`: TEXT, a leading `@` included.
        case raw = "data-raw"
        /// `--data-binary`: TEXT, or `@FILE` sent byte for byte.
        case binary = "data-binary"
        /// `--data-urlencode`: `content`, `=content`, `name=content`, `@file` or `name@file`,
        /// the content percent-encoded, the name as it is.
        case urlencode = "data-urlencode"
        /// `--json`: as `--data-binary`, and the request says it is JSON and asks for JSON.
        case json
    }

    public let kind: Kind
    public let argument: String

    public init(_ kind: Kind, _ argument: String) {
        self.kind = kind
        self.argument = argument
    }

    /// The body `pieces` make, and the headers curl sends with it: Content-Type
    /// `application/x-www-form-urlencoded`, or with a `--json` piece `application/json` and
    /// `Accept: application/json`. One `--data-binary @FILE` or `--json @FILE` is streamed from
    /// the file (`@-`, from standard input) rather than read first; any other file is read
    /// whole with `read` (its path, "-" for standard input), as curl reads it.
    public static func body(
        of pieces: [DataPiece], read: (String) throws(TransferFailure) -> [UInt8]
    ) throws(TransferFailure) -> RequestSerializer.RawBody {
        let isJSON = pieces.contains { $0.kind == .json }
        func made(_ source: RequestSerializer.RawBody.Source) -> RequestSerializer.RawBody {
            isJSON
                ? RequestSerializer.RawBody(source, contentType: "application/json", accept: "application/json")
                : RequestSerializer.RawBody(source, contentType: "application/x-www-form-urlencoded")
        }
        if pieces.count == 1, let only = pieces.first, only.kind == .binary || only.kind == .json,
            only.argument.hasPrefix("@")
        {
            let path = String(only.argument.dropFirst())
            return made(path == "-" ? .standardInput : .file(path: path))
        }
        var bytes: [UInt8] = []
        for (index, piece) in pieces.enumerated() {
            if index > 0 && piece.kind != .json { bytes.append(UInt8(ascii: "&")) }
            bytes += try piece.bytes(read: read)
        }
        return made(.bytes(bytes))
    }

    /// This piece's bytes in the body.
    func bytes(read: (String) throws(TransferFailure) -> [UInt8]) throws(TransferFailure) -> [UInt8] {
        let file = argument.hasPrefix("@") ? String(argument.dropFirst()) : nil
        switch kind {
        case .raw:
            return Array(argument.utf8)
        case .data:
            guard let file else { return Array(argument.utf8) }
            // As curl reads a file for -d: line ends dropped, so a file of lines is one body.
            return try read(file).filter { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }
        case .binary, .json:
            guard let file else { return Array(argument.utf8) }
            return try read(file)
        case .urlencode:
            // The first "=" splits name from content; without one, the first "@" names a file.
            let separator = argument.firstIndex(of: "=") ?? argument.firstIndex(of: "@")
            guard let separator else { return QueryEncoding.escapeBytes(Array(argument.utf8)) }
            let name = Array(argument[..<separator].utf8)
            let rest = String(argument[argument.index(after: separator)...])
            let content = argument[separator] == "@" ? try read(rest) : Array(rest.utf8)
            return name.isEmpty
                ? QueryEncoding.escapeBytes(content) : name + [UInt8(ascii: "=")] + QueryEncoding.escapeBytes(content)
        }
    }
}
