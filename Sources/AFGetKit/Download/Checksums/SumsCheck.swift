import AFGetSupport
import Synchronization

/// `--checksums`: a run's items checked against a sums file. Each item is looked up by its
/// destination relative to `-d` as it is prepared (before `--on-exists rename` and `-J` have
/// their say: the sums file names the file, not the copy); a `checksum=` of its own wins. Items
/// the file does not name are counted for the summary, or refused with `--require-checksums`.
public final class SumsCheck: Sendable {
    public let file: SumsFile
    /// `-d`, normalized ("" for the current directory).
    private let directory: [UInt8]
    /// `--require-checksums`: an item the file does not name fails instead of going unchecked.
    public let requiresChecksums: Bool
    /// Items prepared without a checksum because the file does not name them.
    private let unnamed = Atomic<Int>(0)

    public init(_ file: SumsFile, directory: String?, requiresChecksums: Bool) {
        self.file = file
        self.directory = SumsFile.normalized(Array((directory ?? ".").utf8))
        self.requiresChecksums = requiresChecksums
    }

    /// The file name the summary gives: `SHA256SUMS` for `https://host/isos/SHA256SUMS`.
    public var shortName: String {
        let withoutQuery = file.name.split(separator: "?", maxSplits: 1).first.map(String.init) ?? file.name
        return withoutQuery.split(separator: "/").last.map(String.init) ?? file.name
    }

    /// How many items went unchecked because the file does not name them.
    public var unnamedCount: Int { unnamed.load(ordering: .relaxed) }

    /// What the sums file says of an item that has no checksum of its own.
    enum Verdict {
        case checksum(Checksum)
        /// Not named: downloaded unchecked, and counted.
        case unchecked
        /// Not named, and `--require-checksums`: the item fails.
        case refused(TransferFailure)
    }

    func verdict(for item: DownloadItem) -> Verdict {
        if let path = item.plannedPath, let checksum = file.checksum(forPath: relativePath(path)) {
            return .checksum(checksum)
        }
        if requiresChecksums {
            return .refused(
                TransferFailure(.checksum(.notInSums(sumsFile: shortName))))
        }
        unnamed.add(1, ordering: .relaxed)
        return .unchecked
    }

    /// `path` below `-d`, or as it is when it lies elsewhere (then only its name can match).
    private func relativePath(_ path: String) -> [UInt8] {
        let path = SumsFile.normalized(Array(path.utf8))
        guard !directory.isEmpty else { return path }
        let prefix = directory == [UInt8(ascii: "/")] ? directory : directory + [UInt8(ascii: "/")]
        return path.starts(with: prefix) ? Array(path.dropFirst(prefix.count)) : path
    }
}
