import AFGetProgress
import AFGetRequest
import AFGetSession
import AFGetSupport
import AFGetKit
import ArgumentParser
import Glibc

/// What `afget request` accepts of a response and how it shows it.
struct ResponseOptions: ParsableArguments {
    @Option(
        name: .customLong("accept-status"),
        help: ArgumentHelp(
            "Acceptable status codes; any other exits 8 (after printing the body).", valueName: "codes"))
    var acceptStatus = "200-299"

    @Option(
        name: .customLong("accept-type"),
        help: ArgumentHelp(
            "An acceptable Content-Type (repeatable; text/* and */* allowed); any other exits 7.", valueName: "type"))
    var acceptType: [String] = []

    @Flag(help: ArgumentHelp("--pretty indents JSON always, --raw never (default: on a terminal)."))
    var formatting: ResponsePrinter.Formatting = .auto

    @Flag(name: [.customShort("i"), .long], help: "Print the status line and headers before the body.")
    var include = false

    @Option(
        name: [.customShort("o"), .long], help: ArgumentHelp("Save the body to this file instead.", valueName: "file"),
        completion: .file())
    var output: String?

    func validate() throws {
        if let output { try OutputOptions.checkNamesAFile(output, else: "give a file to save the body in") }
        do {
            _ = try serializer()
        } catch {
            throw ValidationError(error.message)
        }
    }

    func serializer() throws(TransferFailure) -> ResponseSerializer {
        try ResponseSerializer.checkContentTypes(acceptType)
        return ResponseSerializer(
            acceptableStatusCodes: try ResponseSerializer.parseStatusCodes(acceptStatus),
            acceptableContentTypes: acceptType)
    }

    /// Prints the response (to `-o FILE` or stdout); a failure to write is returned.
    func write(_ response: TaskResponse) -> TransferFailure? {
        let printer = ResponsePrinter(formatting: formatting, includesHead: include)
        guard let output else {
            let stdout = OutputStream.standardOutput
            let bytes = printer.render(response, toTerminal: stdout.isTerminal, colored: colorAllowed(on: stdout))
            return stdout.write(bytes: bytes).map { fileFailure(.write, "standard output", errno: $0) }
        }
        let bytes = printer.render(response, toTerminal: false, colored: false)
        if let stream = OutputStream.named(output) {
            // Opened again, a redirected standard output would be truncated: written in place.
            return stream.write(bytes: bytes).map { fileFailure(.write, output, errno: $0) }
        }
        let descriptor = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { return fileFailure(.create, output, errno: errno) }
        defer { close(descriptor) }
        return OutputStream(descriptor: descriptor).write(bytes: bytes).map { fileFailure(.write, output, errno: $0) }
    }
}

extension ResponsePrinter.Formatting: EnumerableFlag {
    public static func name(for value: ResponsePrinter.Formatting) -> NameSpecification {
        value == .auto ? .customLong("auto-format") : .long
    }
}
