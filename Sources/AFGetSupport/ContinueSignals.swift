import Glibc
import Synchronization

/// SIGCONT arrivals so far, counted by the signal handler itself (an atomic add is
/// async-signal-safe), so the count has moved before the continued process does much else.
private let continuations = Atomic<Int>(0)

/// Counts SIGCONT arrivals: the process was stopped (Ctrl-Z, SIGSTOP) and continued (`fg`).
/// The curl thread compares counts to tell a stop, whose time no transfer should be blamed
/// for, from a long pause of its own (a slow disk write), which must not hide a stall.
public enum ContinueSignals {
    /// Starts counting; the first call installs the handler, later ones do nothing.
    public static func startCounting() {
        _ = installed
    }

    /// How many times the process was continued since counting started.
    public static var count: Int { continuations.load(ordering: .relaxed) }

    private static let installed: Void = {
        _ = continuations.load(ordering: .relaxed)  // initialized before the handler can run
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in continuations.add(1, ordering: .relaxed) }
        // System calls the handler interrupts are restarted: a SIGCONT must not fail a read or a write.
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        sigaction(SIGCONT, &action, nil)
    }()
}
