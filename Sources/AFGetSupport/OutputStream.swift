import Glibc

/// A file descriptor people read (stderr) or scripts read (stdout), written whole lines at a time.
public struct OutputStream: Sendable {
    public let descriptor: Int32

    public static let standardOutput = OutputStream(descriptor: 1)
    public static let standardError = OutputStream(descriptor: 2)

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The standard output or error that `path` names (`/dev/stdout`, `/dev/fd/1`,
    /// `/proc/self/fd/1`, and the same for 2). Written there, the data belongs on this process's
    /// own stream: opening the path again would write a redirected file from its start, not
    /// where `>>` appends, and there is no directory beside it for a temporary file.
    public static func named(_ path: String) -> OutputStream? {
        switch path {
        case "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1": .standardOutput
        case "/dev/stderr", "/dev/fd/2", "/proc/self/fd/2": .standardError
        default: nil
        }
    }

    public var isTerminal: Bool { isatty(descriptor) == 1 }

    /// Writes all of `text`; errors (a closed pipe) are ignored, as there is nowhere to report them.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let result = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else { return }
                offset += result
            }
        }
    }

    /// Writes all of `bytes` (data, not a message): a failure is returned as errno.
    public func write(bytes: [UInt8]) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { return result < 0 ? errno : EIO }
            offset += result
        }
        return nil
    }

    /// A line for people: what in it could steer a terminal, a line break too, is shown as text
    /// (`TerminalText.clean`), whoever wrote it, so outside text it quotes cannot. Data, JSON and
    /// help for scripts and the bar renderer's own cursor moves go through `write` as they are.
    public func writeLine(_ line: String) {
        writeLines([line])
    }

    /// Lines for people written at once (a summary and its failed items), each as `writeLine`
    /// writes one.
    public func writeLines(_ lines: [String]) {
        write(Self.linesForPeople(lines))
    }

    /// `lines` as `writeLines` writes them: each cleaned, each ended.
    public static func linesForPeople(_ lines: [String]) -> String {
        lines.map { TerminalText.clean($0) + "\n" }.joined()
    }
}

/// Whether colour may be used: a terminal, and NO_COLOR unset or empty (no-color.org).
public func colorAllowed(on stream: OutputStream) -> Bool {
    guard stream.isTerminal else { return false }
    if let noColor = getenv("NO_COLOR"), noColor.pointee != 0 { return false }
    if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
    return true
}
