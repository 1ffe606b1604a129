import Glibc

/// fsync of directories, so completed renames survive a power cut, grouped: a request that
/// arrives while its directory is being synced waits for the next round, which covers every
/// request made in the meantime. A batch of small files pays for a few directory syncs
/// instead of one per file.
actor DirectorySync {
    static let shared = DirectorySync()

    private struct Rounds {
        var isRunning = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private var directories: [String: Rounds] = [:]

    /// Returns once `directory` was synced after the call began.
    func sync(_ directory: String) async {
        await withCheckedContinuation { continuation in
            directories[directory, default: Rounds()].waiting.append(continuation)
            startRoundIfIdle(directory)
        }
    }

    private func startRoundIfIdle(_ directory: String) {
        guard var rounds = directories[directory], !rounds.isRunning else { return }
        guard !rounds.waiting.isEmpty else {
            directories[directory] = nil
            return
        }
        let covered = rounds.waiting
        rounds.waiting = []
        rounds.isRunning = true
        directories[directory] = rounds
        Task {
            await onBlockingThread { syncDirectory(directory) }
            self.finishRound(directory, covered)
        }
    }

    private func finishRound(_ directory: String, _ covered: [CheckedContinuation<Void, Never>]) {
        for continuation in covered { continuation.resume() }
        directories[directory]?.isRunning = false
        startRoundIfIdle(directory)
    }
}

/// fsync of one directory; a directory that cannot be opened is left as it is (the rename
/// itself succeeded).
func syncDirectory(_ directory: String) {
    let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
}
