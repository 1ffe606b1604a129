import AFGetProgress
import AFGetRequest
import AFGetSupport
import AFGetKit
import ArgumentParser
import Glibc

/// `afget request [METHOD] URL [ITEM...]`: one data task, its body printed for scripts and people.
struct RequestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "request",
        abstract: "Send one request and print the response body (an API client).",
        discussion: """
            Items: name=value (a parameter: in the query for GET, HEAD and DELETE, else in the body), \
            name==value (always in the query), Name:value (a header), name:=JSON (a raw JSON value), \
            field@path (a file field; makes the body multipart). A raw body as curl sends it instead: \
            -d, --data-raw, --data-binary, --data-urlencode (a form, joined with &) or --json DATA. \
            METHOD defaults to GET, or POST when an item goes in the body (name=value, name:=JSON, \
            field@path, or a raw body); name==value items and headers alone keep GET.
            """
    )

    @Argument(help: ArgumentHelp("[METHOD] URL, then items.", valueName: "method-url-items"))
    var arguments: [String] = []

    @OptionGroup(title: "Request body") var body: RequestBodyOptions
    @OptionGroup(title: "Response") var response: ResponseOptions
    @OptionGroup(title: "Connection") var connection: ConnectionOptions
    @OptionGroup(title: "Authentication and cookies") var auth: AuthOptions
    @OptionGroup(title: "TLS") var tls: TLSOptions
    @OptionGroup(title: "Retry") var retry: RetryOptions
    @OptionGroup(title: "Config file") var config: ConfigFileOptions

    func validate() throws {
        guard !arguments.isEmpty else { throw ValidationError("no URL given") }
    }

    func run() async throws {
        let (method, url, itemArguments) = Self.split(arguments)
        let request = try reportingFailures {
            let items = try itemArguments.map { try RequestItem.parse($0) }
            let serializer = RequestSerializer(
                headers: try connection.headers(), bodyFormat: body.format,
                queryEncoding: QueryEncoding(arrayFormat: body.arrayFormat))
            return try serializer.request(
                method: method, url: url, items: items, rawBody: try body.rawBody(),
                rawContentType: body.contentType)
        }

        let serializer = try reportingFailures { try response.serializer() }
        let renderer = SharedRenderer(QuietRenderer(showsRetries: true))
        let setup = try ExchangeSetup(connection: connection, auth: auth, tls: tls, retry: retry)
        let runner = ExchangeRunner(
            manager: setup.manager, renderer: renderer, options: setup.options, retry: retry.requestPolicy)
        let shownURL = removingPassword(from: url)
        let info = ItemInfo(id: 0, url: shownURL, path: response.output ?? "-")
        let result = await runner.run(request, info: info, accepted: serializer.acceptableStatusCodes)
        setup.manager.invalidate()

        if result.stopped != nil, let status = setup.manager.cancellation.exitStatus {
            OutputStream.standardError.writeLine("afget: interrupted")
            throw ExitCode(status)
        }
        guard let received = result.response else {
            let failure = result.failure ?? TransferFailure(.stop(.noResponse))
            renderer.handle(.failed(info, ItemFailure(item: shownURL, failure)))
            throw ExitCode(failure.exitCode)
        }
        // The body is printed whatever the status, so scripts can read an error document.
        if let failure = response.write(received) {
            // A reader that went away (`| head`) ends afget as it ends `cat`: quietly.
            if failure.isClosedPipe { throw ExitCode(ExitStatus.outputClosed) }
            renderer.handle(.failed(info, ItemFailure(item: shownURL, failure)))
            throw ExitCode(failure.exitCode)
        }
        let judged = serializer.validate(received.head, sentCredentials: setup.options.sendsCredentials)
        if let failure = result.failure ?? judged {
            renderer.handle(.failed(info, ItemFailure(item: shownURL, failure)))
            throw ExitCode(failure.exitCode)
        }
    }

    /// `[METHOD] URL [ITEM...]`: a first word of letters only, followed by more, is the method.
    static func split(_ arguments: [String]) -> (method: String?, url: String, items: [String]) {
        if arguments.count >= 2, let first = arguments.first, !first.isEmpty,
            first.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) })
        {
            return (first.uppercased(), arguments[1], Array(arguments.dropFirst(2)))
        }
        return (nil, arguments[0], Array(arguments.dropFirst()))
    }
}
