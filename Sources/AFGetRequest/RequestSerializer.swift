import AFGetSupport
import CurlCore

/// Turns what the user asked for into a request value (AFHTTPRequestSerializer's role):
/// parameters in the query for GET, HEAD and DELETE and in the body otherwise, encoded by the
/// chosen body format; default headers that the user's own headers override.
public struct RequestSerializer: Sendable {
    /// How parameters are written into a request body.
    public enum BodyFormat: String, Sendable, CaseIterable {
        /// `application/x-www-form-urlencoded` (AFHTTPRequestSerializer).
        case form
        /// `application/json` (AFJSONRequestSerializer).
        case json
        /// An XML property list (AFPropertyListRequestSerializer).
        case plist
        /// `multipart/form-data`, streamed (AFNetworking's multipart form data).
        case multipart
    }

    /// A body given as it is (curl's `-d`, `--data-binary`, `--json`: `DataPiece`), not built
    /// from parameters, and the headers that say what it is.
    public struct RawBody: Sendable, Equatable {
        public enum Source: Sendable, Equatable {
            case bytes([UInt8])
            case file(path: String)
            case standardInput
        }

        public let source: Source
        /// Unless `--content-type` or a Content-Type header says otherwise.
        public let contentType: String
        /// Unless an Accept header says otherwise; nil for none of afget's own.
        public let accept: String?

        public init(_ source: Source, contentType: String, accept: String? = nil) {
            self.source = source
            self.contentType = contentType
            self.accept = accept
        }
    }

    /// Headers the user gave; they win over the defaults a body format brings.
    public var headers: [HTTPHeader]
    public var bodyFormat: BodyFormat
    public var queryEncoding: QueryEncoding

    public init(headers: [HTTPHeader] = [], bodyFormat: BodyFormat = .form, queryEncoding: QueryEncoding = QueryEncoding()) {
        self.headers = headers
        self.bodyFormat = bodyFormat
        self.queryEncoding = queryEncoding
    }

    /// A request without parameters (a download, an upload of a file's bytes).
    public func request(method: String = "GET", url string: String, body: RequestBody = .none, for use: URLUse = .request)
        throws(ItemFailure) -> HTTPRequest
    {
        try request(method: method, url: try Self.parseURL(string, for: use), body: body)
    }

    /// A request without parameters to a URL already parsed.
    public func request(method: String = "GET", url: CurlURL, body: RequestBody = .none) throws(ItemFailure) -> HTTPRequest {
        try Self.checkingSize(HTTPRequest(method: method, url: url, headers: headers, body: body))
    }

    /// Methods whose parameters go in the query string (AFNetworking's default set).
    public static let queryMethods: Set<String> = ["GET", "HEAD", "DELETE"]

    /// A request built from items (`afget request`). `method` nil means GET, or POST when there
    /// is something for the body.
    public func request(
        method: String?, url string: String, items: [RequestItem], rawBody: RawBody? = nil,
        rawContentType: String? = nil
    ) throws(ItemFailure) -> HTTPRequest {
        var parameters: [Parameter.Member] = []
        var query: [Parameter.Member] = []
        var files: [(field: String, path: String)] = []
        var itemHeaders: [HTTPHeader] = []
        for item in items {
            switch item {
            case .parameter(let name, let value): parameters.append(Parameter.Member(name, value))
            case .query(let name, let value): query.append(Parameter.Member(name, .string(value)))
            case .header(let header): itemHeaders.append(header)
            case .file(let field, let path): files.append((field, path))
            }
        }
        func usage(_ reason: InputFailure) -> ItemFailure { ItemFailure(item: string, TransferFailure(.input(reason))) }

        let format = files.isEmpty ? bodyFormat : .multipart
        if !files.isEmpty && bodyFormat != .form && bodyFormat != .multipart {
            throw usage(.fileFieldsNeedMultipart(format: bodyFormat.rawValue))
        }
        if rawBody != nil && !(parameters.isEmpty && files.isEmpty) {
            throw usage(.rawBodyWithItems)
        }
        let hasBodyItems = !parameters.isEmpty || !files.isEmpty || rawBody != nil
        let method = method?.uppercased() ?? (hasBodyItems ? "POST" : "GET")
        let parametersInQuery = Self.queryMethods.contains(method) && rawBody == nil
        if parametersInQuery && !files.isEmpty {
            throw usage(.fileFieldsWithoutBody(method: method))
        }

        var url = try Self.parseURL(string)
        let queryMembers = query + (parametersInQuery ? parameters : [])
        if !queryMembers.isEmpty {
            url = try Self.parseURL(Self.appendingQuery(queryEncoding.encode(queryMembers), to: url.absoluteString))
        }

        var defaults: [HTTPHeader] = []
        var body = RequestBody.none
        if let rawBody {
            body = Self.body(of: rawBody.source)
            defaults.append(HTTPHeader(name: "Content-Type", value: rawContentType ?? rawBody.contentType))
            if let accept = rawBody.accept { defaults.append(HTTPHeader(name: "Accept", value: accept)) }
        } else if !parametersInQuery && (!parameters.isEmpty || !files.isEmpty) {
            let encoded: (contentType: String, body: RequestBody)
            do {
                encoded = try encode(parameters, files: files, as: format)
            } catch {
                throw usage(.bodyUnrepresentable(error.message))
            }
            body = encoded.body
            defaults.append(HTTPHeader(name: "Content-Type", value: encoded.contentType))
        }
        if bodyFormat == .json && rawBody?.accept == nil {
            defaults.append(HTTPHeader(name: "Accept", value: "application/json, */*;q=0.5"))
        }
        let userHeaders = headers + itemHeaders
        let userNames = Set(userHeaders.map { $0.name.lowercased() })
        let merged = defaults.filter { !userNames.contains($0.name.lowercased()) } + userHeaders
        return try Self.checkingSize(HTTPRequest(method: method, url: url, headers: merged, body: body))
    }

    /// `request`, or a usage failure when its URL and headers are more than libcurl can send.
    private static func checkingSize(_ request: HTTPRequest) throws(ItemFailure) -> HTTPRequest {
        let size = request.urlAndHeadersSize
        guard size <= HTTPRequest.largestURLAndHeaders else {
            throw ItemFailure(
                item: removingPassword(from: request.url.absoluteString),
                TransferFailure(.input(.requestTooLarge(size: size, limit: HTTPRequest.largestURLAndHeaders))))
        }
        return request
    }

    private func encode(_ parameters: [Parameter.Member], files: [(field: String, path: String)], as format: BodyFormat)
        throws(PropertyListText.Unrepresentable) -> (contentType: String, body: RequestBody)
    {
        let tree = Parameter.merging(parameters)
        switch format {
        case .form:
            guard case .dictionary(let members) = tree else { return ("", .none) }
            return ("application/x-www-form-urlencoded; charset=utf-8", .bytes(Array(queryEncoding.encode(members).utf8)))
        case .json:
            return ("application/json", .bytes(Array(JSONText.compact(tree).utf8)))
        case .plist:
            return ("application/x-plist", .bytes(Array(try PropertyListText.xml(tree).utf8)))
        case .multipart:
            guard case .dictionary(let members) = tree else { return ("", .none) }
            var form = MultipartForm()
            for pair in queryEncoding.pairs(members) {
                form.fields.append(.text(name: pair.name, value: pair.value ?? ""))
            }
            for file in files {
                form.fields.append(MultipartForm.fileField(name: file.field, path: file.path))
            }
            return (form.contentType, form.body)
        }
    }

    private static func body(of raw: RawBody.Source) -> RequestBody {
        switch raw {
        case .bytes(let bytes): .bytes(bytes)
        case .file(let path): .file(path: path)
        case .standardInput: .standardInput
        }
    }

    /// `url` with `query` added to any query it has, before a fragment.
    static func appendingQuery(_ query: String, to url: String) -> String {
        var base = url
        var fragment = ""
        if let hash = base.firstIndex(of: "#") {
            fragment = String(base[hash...])
            base = String(base[..<hash])
        }
        let separator = base.contains("?") ? (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&") : "?"
        return base + separator + query + fragment
    }

    /// What a URL is for: `afget request` speaks HTTP alone; downloads and uploads also reach
    /// files on FTP and SSH servers.
    public enum URLUse: Sendable {
        case request
        case download
        case upload

        var acceptsRemoteFiles: Bool { self != .request }
    }

    /// A URL afget can use for `use`, or a usage failure naming the URL and what is wrong with it.
    /// `reading` says what is read of a good one (`CurlURL.Reading`).
    public static func parseURL(
        _ string: String, for use: URLUse = .request, reading: CurlURL.Reading = .all
    ) throws(ItemFailure) -> CurlURL {
        func refused(_ failure: TransferFailure) -> ItemFailure { ItemFailure(item: removingPassword(from: string), failure) }
        guard let scheme = scheme(of: string) else {
            throw refused(TransferFailure(.input(.notAURL(remoteFiles: use.acceptsRemoteFiles))))
        }
        // Before libcurl's parser, which calls `file:///etc/hosts` a URL with "no host".
        guard
            scheme == "http" || scheme == "https" || (use.acceptsRemoteFiles && CurlURL.remoteFileSchemes.contains(scheme))
                || (use == .download && scheme == "s3")
        else {
            throw refused(unsupportedScheme(scheme, for: use))
        }
        // Checked before libcurl's parser, which calls a URL over 8 MB "malformed input".
        guard string.utf8.count <= HTTPRequest.largestURLAndHeaders else {
            throw refused(
                TransferFailure(.input(.urlTooLong(length: string.utf8.count, limit: HTTPRequest.largestURLAndHeaders))))
        }
        let url: CurlURL
        do {
            url = try CurlURL(string, reading: reading)
        } catch {
            switch error {
            case .malformed(let reason):
                throw refused(TransferFailure(.input(.malformedURL(reason))))
            }
        }
        if url.scheme == "s3" {
            // The store's URL is made from it as the item is prepared, with the run's endpoint.
            guard S3Location(url) != nil else { throw refused(TransferFailure(.input(.s3URLMalformed))) }
            return url
        }
        guard url.isHTTP || (use.acceptsRemoteFiles && url.isRemoteFile) else {
            throw refused(unsupportedScheme(url.scheme, for: use))
        }
        // libcurl would fetch a directory's listing as if it were the file.
        if use == .download, url.isRemoteFile, url.path.hasSuffix("/") {
            throw refused(TransferFailure(.input(.urlNamesDirectory)))
        }
        return url
    }

    private static func unsupportedScheme(_ scheme: String, for use: URLUse) -> TransferFailure {
        TransferFailure(.input(.unsupportedScheme(scheme, remoteFiles: use.acceptsRemoteFiles)))
    }

    /// The scheme a URL starts with, before "://" (RFC 3986 §3.1: a letter, then letters,
    /// digits, `+`, `-` and `.`), lowercased; nil for anything else. Read in bytes: `String`'s
    /// character search costs more than libcurl's whole parse of a list line.
    private static func scheme(of string: String) -> String? {
        guard let colon = string.utf8.firstIndex(of: UInt8(ascii: ":")), string.utf8[colon...].starts(with: "://".utf8) else {
            return nil
        }
        let name = string.utf8[..<colon]
        guard let first = name.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first | 0x20),
            name.allSatisfy({ byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            })
        else { return nil }
        return String(decoding: name, as: UTF8.self).lowercased()
    }
}
