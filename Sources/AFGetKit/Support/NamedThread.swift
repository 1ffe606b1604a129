import CPlatform
import Glibc

/// Starts a thread of its own named `name` (seen in `top -H` and debuggers) running `body`.
/// A POSIX thread rather than Foundation's `Thread`, so afget does not load Foundation.
func startThread(named name: String, _ body: @escaping @Sendable () -> Void) {
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
    let status = pthread_create(&thread, nil, { argument in
        let start = Unmanaged<Start>.fromOpaque(argument!).takeRetainedValue()
        afp_name_thread(String(start.name.prefix(15)))
        start.body()
        return nil
    }, start)
    // Without its thread afget cannot work at all; this happens only when the system is out of
    // threads or memory.
    precondition(status == 0, "cannot start thread \(name): \(String(cString: strerror(status)))")
    pthread_detach(thread)
}
