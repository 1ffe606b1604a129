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
            field@path (a file field; makes the body multipart). METHOD defaults to GET, or POST when \
            there is a body.
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

    func validate() throws {
        guard !arguments.isEmpty else { throw ValidationError("no URL given") }
    }

    func run() async throws {
        let (method, url, itemArguments) = Self.split(arguments)
        let request: HTTPRequest
        do {
            var items: [RequestItem] = []
            for argument in itemArguments {
                items.append(try RequestItem.parse(argument))
            }
            let serializer = RequestSerializer(headers: try connection.headers(), bodyFormat: body.format,
                                               queryEncoding: QueryEncoding(arrayFormat: body.arrayFormat))
            request = try serializer.request(method: method, url: url, items: items, rawBody: try body.rawBody(),
                                             rawContentType: body.contentType)
        } catch let failure as ItemFailure {
            throw UsageFailure(message: "\(failure)")
        } catch let failure as TransferFailure {
            throw UsageFailure(message: failure.message)
        }

        let manager = TaskManager()
        let interrupts = InterruptMonitor { manager.cancelAll() }
        let options = try connection.transferOptions(auth: auth, tls: tls)
        let renderer = SharedRenderer(QuietRenderer())
        let runner = ExchangeRunner(manager: manager, renderer: renderer, options: options, retry: retry.policy,
                                    interrupts: interrupts.status)
        let info = ItemInfo(id: 0, url: url, path: response.output ?? "-")
        let outcome = await runner.run(request, info: info)
        manager.invalidate()

        if outcome.interrupted, let status = interrupts.status.exitStatus {
            OutputStream.standardError.writeLine("afget: interrupted")
            throw ExitCode(status)
        }
        guard let received = outcome.response else {
            let failure = outcome.failure ?? TransferFailure(.internalError, "no response")
            renderer.handle(.failed(info, ItemFailure(item: url, failure)))
            throw ExitCode(failure.exitCode)
        }
        // The body is printed whatever the status, so scripts can read an error document.
        if let failure = response.write(received) {
            renderer.handle(.failed(info, ItemFailure(item: response.output ?? "standard output", failure)))
            throw ExitCode(failure.exitCode)
        }
        let judged: TransferFailure?
        do {
            judged = try response.serializer().validate(received.head, sentCredentials: options.sendsCredentials)
        } catch {
            throw UsageFailure(message: error.message)
        }
        if let failure = outcome.failure ?? judged {
            renderer.handle(.failed(info, ItemFailure(item: url, failure)))
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
