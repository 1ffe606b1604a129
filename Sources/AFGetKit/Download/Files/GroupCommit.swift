import AFGetSupport
import CPlatform
import Glibc
import Synchronization

/// Moves finished part files into place so that after a power cut each destination is either
/// absent or complete: the data is made durable, then renamed over the destination, then the
/// rename is made durable. Done in rounds on the disk thread: files that finish while a round
/// runs go together in the next one. A round of several files makes them durable with one
/// `syncfs` (per file system) before the renames, and that flush also makes the previous
/// round's renames durable; a last one settles the final round. A batch of small files then
/// costs some hundred flushes of the disk instead of two per file (docs/performance.md). A
/// lone file, or a system already holding
/// much unwritten data (someone else's copy would make every `syncfs` wait for it), gets an
/// fsync of its own and of its directory.
public final class GroupCommit: Sendable {
    /// Where the rounds run.
    private let disk: DiskThread

    public init(disk: DiskThread) {
        self.disk = disk
    }

    /// What is moved into place: a named part file, renamed to the destination, or a file with
    /// no name, linked to it (through its part file's name when replacing). `replacing`: an
    /// existing destination is replaced; otherwise a destination that appeared meanwhile is
    /// left alone, the data kept.
    enum Source: Sendable {
        case named(String, replacing: Bool)
        /// `partPath`: the name it takes when kept, or on its way over an existing file.
        case anonymous(partPath: String, replacing: Bool)
    }

    private struct Move {
        let descriptor: Int32
        let source: Source
        let destination: String
        let finished: @Sendable (TransferFailure?) -> Void

        /// What messages call the data: the part file, or the destination it is for.
        var path: String {
            if case .named(let path, _) = source { path } else { destination }
        }
    }

    private struct Queue {
        var moves: [Move] = []
        var isRunning = false
    }
    private let queue = PthreadMutex(Queue())

    /// Above this much unwritten data in the whole system, files are synced one by one.
    private static let unwrittenLimit: Int64 = 64 << 20
    /// How long a reading of the system's unwritten data is used: /proc/meminfo is not read
    /// for every round of a batch of small files.
    private static let unwrittenReadingLifetime = 0.5
    private let lastUnwrittenReading = PthreadMutex((at: -Double.infinity, isLow: false))

    /// Makes the file open as `descriptor` durable at `path`, renames it to `destination` and
    /// makes that durable. On failure the data stays at `path` and the message says so.
    func move(_ descriptor: Int32, from source: Source, to destination: String) async -> TransferFailure? {
        await withCheckedContinuation { finished in
            move(descriptor, from: source, to: destination) { finished.resume(returning: $0) }
        }
    }

    /// As above, calling `finished` on the disk thread when done.
    func move(
        _ descriptor: Int32, from source: Source, to destination: String,
        finished: @escaping @Sendable (TransferFailure?) -> Void
    ) {
        let startsRounds = queue.withLock { queue in
            queue.moves.append(Move(descriptor: descriptor, source: source, destination: destination, finished: finished))
            guard !queue.isRunning else { return false }
            queue.isRunning = true
            return true
        }
        if startsRounds {
            disk.submit { self.runRounds() }
        }
    }

    private func runRounds() {
        // Renamed, and reported once a later flush has made the renames durable too.
        var unsettled: [Move] = []
        while true {
            let hasUnsettled = !unsettled.isEmpty
            let round = queue.withLock { queue in
                defer { queue.moves = [] }
                if queue.moves.isEmpty && !hasUnsettled { queue.isRunning = false }
                return queue.moves
            }
            if round.isEmpty {
                guard hasUnsettled else { return }
                settle(unsettled)
                unsettled = []
            } else {
                unsettled = commit(round, settling: unsettled)
            }
        }
    }

    /// Makes `round` durable and renames it. With several files, one `syncfs` covers both this
    /// round's data and the renames of the round before (`unsettled`, reported now), and this
    /// round's renames are returned to be settled by the next flush: one flush per round
    /// instead of two while files keep coming.
    private func commit(_ round: [Move], settling unsettled: [Move]) -> [Move] {
        var failures = [TransferFailure?](repeating: nil, count: round.count)
        // One descriptor per file system the round writes to (a list's `dir=` may span several).
        let isGroup = round.count + unsettled.count > 1 && littleIsUnwritten()
        let fileSystems = isGroup ? Self.oneDescriptorPerFileSystem(round + unsettled) : nil
        let together = fileSystems?.allSatisfy { afp_sync_filesystem($0) == 0 } ?? false
        if together {
            report(unsettled)
        } else {
            settle(unsettled)
            for (index, move) in round.enumerated() where fsync(move.descriptor) != 0 {
                failures[index] = fileFailure(.sync, move.path, errno: errno).noting(.dataKeptThere)
            }
        }
        for (index, move) in round.enumerated() where failures[index] == nil {
            failures[index] = Self.place(move)
        }
        let renamed = round.indices.filter { failures[$0] == nil }
        for index in round.indices where failures[index] != nil {
            round[index].finished(failures[index])
        }
        if together { return renamed.map { round[$0] } }
        for directory in Set(renamed.map { splitPath(round[$0].destination).directory }) {
            syncDirectory(directory)
        }
        report(renamed.map { round[$0] })
        return []
    }

    /// Gives the data its destination's name: a rename, or a link for a file with no name.
    private static func place(_ move: Move) -> TransferFailure? {
        switch move.source {
        case .named(let path, let replacing):
            if replacing {
                guard rename(path, move.destination) != 0 else { return nil }
                return cannotMove(path, to: move.destination, errno)
            }
            guard afp_rename_noreplace(path, move.destination) != 0 else { return nil }
            return errno == EEXIST ? appeared(move.destination, keptIn: path) : cannotMove(path, to: move.destination, errno)
        case .anonymous(let partPath, let replacing):
            if afp_link_anonymous(move.descriptor, move.destination) == 0 { return nil }
            let code = errno
            if code == EEXIST && !replacing { return appeared(move.destination, keptIn: partPath) }
            guard code == EEXIST else { return cannotMove(partPath, to: move.destination, code) }
            // Replacing: its part file's name first (a link cannot replace), then renamed over.
            guard afp_link_anonymous(move.descriptor, partPath) == 0 else {
                return fileFailure(.create, partPath, errno: errno)
            }
            guard rename(partPath, move.destination) == 0 else { return cannotMove(partPath, to: move.destination, errno) }
            return nil
        }
    }

    /// A name the download was not to replace appeared while it ran (another run's file: left
    /// as it is), or something else is there (said as a rename would have said it).
    private static func appeared(_ destination: String, keptIn path: String) -> TransferFailure {
        guard let kind = fileKind(at: destination), kind != S_IFREG else {
            return TransferFailure(.file(.appearedWhileDownloaded(path: destination)))
        }
        return cannotMove(path, to: destination, kind == S_IFDIR ? EISDIR : EEXIST)
    }

    /// The data could not take its destination's name; it stays where it is (the job says where
    /// it keeps it for the next run, naming a file that had no name).
    private static func cannotMove(_ path: String, to destination: String, _ code: Int32) -> TransferFailure {
        TransferFailure(.file(.cannotMove(path: path, to: destination, errno: code)))
    }

    /// Makes the renames of `moves` durable, then reports them.
    private func settle(_ moves: [Move]) {
        guard !moves.isEmpty else { return }
        let together = Self.oneDescriptorPerFileSystem(moves)?.allSatisfy { afp_sync_filesystem($0) == 0 } ?? false
        if !together {
            for directory in Set(moves.map { splitPath($0.destination).directory }) {
                syncDirectory(directory)
            }
        }
        report(moves)
    }

    private func report(_ moves: [Move]) {
        for move in moves { move.finished(nil) }
    }

    /// Whether the system holds less unwritten data than `unwrittenLimit`, read at most every
    /// `unwrittenReadingLifetime` seconds.
    private func littleIsUnwritten() -> Bool {
        let now = monotonicSeconds()
        return lastUnwrittenReading.withLock { reading in
            if now - reading.at >= Self.unwrittenReadingLifetime {
                reading = (now, unwrittenBytes() < Self.unwrittenLimit)
            }
            return reading.isLow
        }
    }

    /// A descriptor of the round on each file system it touches; nil when one cannot be inspected.
    private static func oneDescriptorPerFileSystem(_ round: [Move]) -> [Int32]? {
        var byDevice: [UInt: Int32] = [:]
        for move in round {
            var status = stat()
            guard fstat(move.descriptor, &status) == 0 else { return nil }
            byDevice[UInt(status.st_dev)] = move.descriptor
        }
        return Array(byDevice.values)
    }
}

/// fsync of one directory; a directory that cannot be opened is left as it is (the rename
/// itself succeeded).
private func syncDirectory(_ directory: String) {
    let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
}

/// Dirty and Writeback from /proc/meminfo: data written by anyone and not yet on disk.
/// Unknown counts as a lot, so files are then synced one by one.
private func unwrittenBytes() -> Int64 {
    let descriptor = open("/proc/meminfo", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return .max }
    defer { close(descriptor) }
    guard case .success(let bytes) = readAll(descriptor, limit: 1 << 16) else { return .max }
    var total: Int64 = 0
    for line in bytes.split(separator: UInt8(ascii: "\n")).map({ String(decoding: $0, as: UTF8.self) })
    where line.hasPrefix("Dirty:") || line.hasPrefix("Writeback:") {
        let fields = line.split(separator: " ")
        guard fields.count >= 2, let kib = Int64(fields[1]) else { return .max }
        total += kib * 1024
    }
    return total
}
