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

    @Option(
        name: [.customShort("d"), .customLong("data")],
        help: ArgumentHelp(
            "A raw body: TEXT, @FILE (streamed from the file) or @- (standard input).", valueName: "body"))
    var data: String?

    @Option(
        name: .customLong("data-binary"),
        help: ArgumentHelp(
            "The same as --data (bytes are sent as they are).",
            valueName: "body"))
    var dataBinary: String?

    @Option(
        name: .customLong("content-type"),
        help: ArgumentHelp(
            "Content-Type of a raw body (default application/octet-stream).", valueName: "type"))
    var contentType: String?

    func validate() throws {
        if data != nil && dataBinary != nil { throw ValidationError("--data and --data-binary cannot be combined") }
        if contentType != nil && data == nil && dataBinary == nil {
            throw ValidationError("--content-type is for a raw body (--data); use a Content-Type:value item otherwise")
        }
    }

    func rawBody() throws(TransferFailure) -> RequestSerializer.RawBody? {
        guard let argument = data ?? dataBinary else { return nil }
        if argument == "@-" { return .standardInput }
        if argument.hasPrefix("@") {
            let path = String(argument.dropFirst())
            guard access(path, R_OK) == 0 else { throw fileFailure(.read, path, errno: errno) }
            return .file(path: path)
        }
        return .text(argument)
    }
}

extension RequestSerializer.BodyFormat: EnumerableFlag {}
extension QueryEncoding.ArrayFormat: ExpressibleByArgument {}
