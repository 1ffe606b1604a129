import AFGetSession
import AFGetSupport
import AFGetKit
import ArgumentParser

/// What `afget request` and `afget upload` share: one task manager whose run Ctrl-C and
/// SIGTERM stop, and the transfer options.
struct ExchangeSetup {
    let manager: TaskManager
    let interrupts: InterruptMonitor
    let options: TransferOptions

    init(
        connection: ConnectionOptions, auth: AuthOptions, tls: TLSOptions, retry: RetryOptions,
        remoteFiles: RemoteFileSettings = RemoteFileSettings()
    ) throws {
        manager = TaskManager(totalRateLimit: connection.totalRateLimit)
        interrupts = InterruptMonitor(stopping: manager.cancellation)
        options = try connection.transferOptions(auth: auth, tls: tls, retry: retry, remoteFiles: remoteFiles)
        try DescriptorBudget.requireRoomForOneTransfer()
    }
}

/// Runs `body`, found before any transfer; an item failure it throws becomes the one line
/// `main` prints, with the exit status of its class (2 for bad input, 3 for a file that cannot be
/// read: `-d @missing` as `f@missing`).
func reportingFailures<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let failure as ItemFailure {
        throw failure.failure.noting(.at(failure.item))
    }
}
