import AFGetRequest
import AFGetSupport
import Glibc

/// The requests `afget upload FILE... URL` makes: one per file, PUT by default, to URL or (when
/// URL ends in `/`) to URL plus the file's name; with a form field name, a multipart form
/// holding the file under that name and the extra fields.
public struct UploadPlan: Sendable {
    public var method: String
    /// Send each file as this multipart field instead of as the whole body.
    public var formField: String?
    public var extraFields: [(name: String, value: String)]
    public var headers: [HTTPHeader]

    public init(
        method: String = "PUT", formField: String? = nil, extraFields: [(name: String, value: String)] = [],
        headers: [HTTPHeader] = []
    ) {
        self.method = method
        self.formField = formField
        self.extraFields = extraFields
        self.headers = headers
    }

    /// `-` is standard input (streamed, so sent once: never retried).
    public static let standardInputName = "-"

    /// The request for one file, or a usage or file failure naming it.
    public func request(for file: String, to url: String) throws(ItemFailure) -> HTTPRequest {
        let isStandardInput = file == Self.standardInputName
        if !isStandardInput {
            var status = stat()
            guard stat(file, &status) == 0 else {
                let code = errno
                throw ItemFailure(item: file, TransferFailure(.file(.system(errno: code))))
            }
            guard status.st_mode & S_IFMT == S_IFREG else {
                throw ItemFailure(item: file, TransferFailure(.input(.notRegularFile)))
            }
        }
        let name = isStandardInput ? "stdin" : splitPath(file).name
        let target = url.hasSuffix("/") ? url + QueryEncoding.escapePathSegment(name) : url
        var headers = headers
        let body: RequestBody
        if let formField {
            var form = MultipartForm(fields: extraFields.map { .text(name: $0.name, value: $0.value) })
            if isStandardInput {
                form.fields.append(.standardInput(name: formField, filename: name))
            } else {
                form.fields.append(MultipartForm.fileField(name: formField, path: file))
            }
            body = form.body
            if !headers.contains(where: { $0.name.isSameHeaderName(as: "Content-Type") }) {
                headers.insert(HTTPHeader(name: "Content-Type", value: form.contentType), at: 0)
            }
        } else {
            body = isStandardInput ? .standardInput : .file(path: file)
        }
        return try RequestSerializer(headers: headers).request(method: method, url: target, body: body, for: .upload)
    }
}
