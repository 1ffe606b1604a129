import Foundation

/// Runs work that blocks on the disk on a thread of its own and waits for it without blocking
/// the caller's thread.
func onBlockingThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}
