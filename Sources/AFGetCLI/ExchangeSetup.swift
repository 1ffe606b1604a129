import AFGetKit
import ArgumentParser

/// What `afget request` and `afget upload` share: one task manager, Ctrl-C and SIGTERM wired
/// to cancel its tasks, the transfer options, and a runner for exchanges.
struct ExchangeSetup {
    let manager = TaskManager()
    let interrupts: InterruptMonitor
    let options: TransferOptions
    let runner: ExchangeRunner

    init(connection: ConnectionOptions, auth: AuthOptions, tls: TLSOptions, retry: RetryOptions,
         renderer: SharedRenderer) throws {
        let manager = manager
        interrupts = InterruptMonitor { manager.cancelAll() }
        options = try connection.transferOptions(auth: auth, tls: tls)
        try DescriptorBudget.requireRoomForOneTransfer()
        runner = ExchangeRunner(manager: manager, renderer: renderer, options: options, retry: retry.policy,
                                interrupts: interrupts.status)
    }
}

/// Runs `body`, found before any transfer; an item failure it throws becomes the one line
/// `main` prints, with the exit status of its class (2 for bad input, 3 for a file that cannot be
/// read: `-d @missing` as `f@missing`).
func reportingFailures<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let failure as ItemFailure {
        throw TransferFailure(failure.failure.kind, "\(failure)")
    }
}
