import CPlatform
import Glibc

/// Starts a thread of its own named `name` (seen in `top -H` and debuggers) running `body`.
/// A POSIX thread rather than Foundation's `Thread`, so afget does not load Foundation.
package func startThread(named name: String, _ body: @escaping @Sendable () -> Void) {
    final class Start: Sendable {
        let name: String
        let body: @Sendable () -> Void
        init(_ name: String, _ body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
    let start = Unmanaged.passRetained(Start(name, body)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(
        &thread, nil,
        { argument in
            let start = Unmanaged<Start>.fromOpaque(argument!).takeRetainedValue()
            afp_name_thread(String(start.name.prefix(15)))
            start.body()
            return nil
        }, start)
    guard status == 0 else {
        // Without its thread afget cannot work at all: the system is out of threads or memory.
        OutputStream.standardError.writeLine("afget: cannot start a thread (\(name)): \(describeErrno(status))")
        exit(FailureClass.internalError.exitCode)
    }
    pthread_detach(thread)
}
