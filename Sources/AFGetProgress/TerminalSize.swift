import AFGetSupport
import Glibc

/// A terminal window's size, read with one TIOCGWINSZ each time the block is drawn, so a
/// resized window is followed at the next frame (no SIGWINCH handler is needed for that).
public struct TerminalSize: Sendable, Equatable {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// The size of the terminal `stream` writes to; 80 × 24 when it cannot be told.
    public static func of(_ stream: OutputStream) -> TerminalSize {
        var size = winsize()
        guard ioctl(stream.descriptor, UInt(TIOCGWINSZ), &size) == 0 else { return TerminalSize(columns: 80, rows: 24) }
        return TerminalSize(
            columns: size.ws_col > 0 ? Int(size.ws_col) : 80, rows: size.ws_row > 0 ? Int(size.ws_row) : 24)
    }
}
