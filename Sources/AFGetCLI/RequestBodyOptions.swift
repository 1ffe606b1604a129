import AFGetRequest
import AFGetSupport
import AFGetKit
import ArgumentParser
import Glibc

/// How `afget request` builds a body: the serializer for parameters, or a raw body.
struct RequestBodyOptions: ParsableArguments {
    @Flag(
        help: ArgumentHelp(
            "How parameters go into the body: --form (default, urlencoded), --json, --plist (XML "
                + "property list) or --multipart (multipart/form-data)."))
    var format: RequestSerializer.BodyFormat = .form

    @Option(
        name: .customLong("array-format"),
        help: ArgumentHelp(
            "Arrays in query and form: brackets (a[]=x), indices (a[0]=x) or repeat (a=x&a=y).", valueName: "format"))
    var arrayFormat: QueryEncoding.ArrayFormat = .brackets

    /// curl's body options, in the order typed: they are one option so that the parser keeps
    /// that order, each value marked with the name it was given under (`DataArguments`).
    @Option(
        name: [
            .customShort("d"), .customLong("data"), .customLong("data-raw"), .customLong("data-binary"),
            .customLong("data-urlencode"),
        ],
        help: ArgumentHelp(
            "A raw body as curl sends it, sent as a form (application/x-www-form-urlencoded); several are joined "
                + "with &. -d TEXT or @FILE (@-: standard input; CR and LF dropped), --data-raw TEXT (an @ as it is), "
                + "--data-binary TEXT or @FILE (byte for byte), --data-urlencode [NAME]=TEXT or [NAME]@FILE "
                + "(percent-encoded). --json DATA (curl's: DATA starts with {, [, \", @ or a space, or --json=DATA): "
                + "a JSON body, with Accept: application/json.",
            valueName: "body"))
    var pieces: [DataPiece] = []

    @Option(
        name: .customLong("content-type"),
        help: ArgumentHelp(
            "Content-Type of a raw body (default application/x-www-form-urlencoded, or application/json for --json DATA).",
            valueName: "type"))
    var contentType: String?

    func validate() throws {
        if contentType != nil && pieces.isEmpty {
            throw ValidationError("--content-type is for a raw body (-d, --json DATA); use a Content-Type:value item otherwise")
        }
    }

    func rawBody() throws(TransferFailure) -> RequestSerializer.RawBody? {
        guard !pieces.isEmpty else { return nil }
        let body = try DataPiece.body(of: pieces, read: Self.read)
        // A file streamed as the body is checked now, as one read whole is.
        if case .file(let path) = body.source, access(path, R_OK) != 0 { throw fileFailure(.read, path, errno: errno) }
        return body
    }

    /// A body file's bytes ("-": standard input's), or the local file failure (exit 3).
    private static func read(_ path: String) throws(TransferFailure) -> [UInt8] {
        let descriptor = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw fileFailure(.read, path, errno: errno) }
        defer { if descriptor != 0 { close(descriptor) } }
        switch readAll(descriptor) {
        case .success(let bytes): return bytes
        case .failure(.system(let code)): throw fileFailure(.read, path == "-" ? "standard input" : path, errno: code)
        case .failure(.tooLarge): throw fileFailure(.read, path, errno: EFBIG)
        }
    }
}

extension RequestSerializer.BodyFormat: EnumerableFlag {}

extension DataPiece: ExpressibleByArgument {
    /// A value `DataArguments` marked with its option's name; unmarked, `-d`'s.
    public init?(argument: String) {
        if let (kind, value) = DataArguments.unmarked(argument) {
            self.init(kind, value)
        } else {
            self.init(.data, argument)
        }
    }
}
extension QueryEncoding.ArrayFormat: ExpressibleByArgument {}
