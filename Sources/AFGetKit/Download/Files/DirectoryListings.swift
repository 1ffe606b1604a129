import AFGetSupport
import Glibc
import Synchronization

/// What a batch's destination directories held when they were listed, so that a new item's
/// three look-ups of names that are not there (DEST, DEST.afpart, DEST.afresume: a directory
/// index search each, the largest cost of preparing a small file) become one listing per
/// directory. A directory is listed once enough items have gone into it to pay for the listing;
/// until then every name is looked up.
///
/// A name that appears after the listing is still caught where it matters: a file with no name
/// is linked into place with `linkat`, which refuses an existing name, and a part file's name is
/// taken with `O_EXCL`. A name listed is looked up as before.
final class DirectoryListings: Sendable {
    private enum Listing {
        /// Items seen in the directory so far, not yet listed.
        case counting(Int)
        /// The hashes of the names it held (a hash shared by another name only costs a look-up).
        case listed(Set<Int>)
        /// Too many names to keep, or it could not be read: every name is looked up.
        case unlisted
    }

    private let listings = PthreadMutex<[String: Listing]>([:])

    /// Items into one directory before it is listed: a single download, or a few, into a large
    /// directory (a home's Downloads) is not worth a listing.
    static let itemsBeforeListing = 64
    /// Past this many names a directory is not listed (memory flat however large it is).
    static let largestListing = 1 << 22

    /// Whether `path` was certainly not there when its directory was listed; false when it may
    /// be (it must be looked up).
    func isAbsent(_ path: String) -> Bool {
        let (directory, name) = splitPath(path)
        return listings.withLock { listings in
            switch listings[directory] ?? .counting(0) {
            case .counting(let seen) where seen + 1 < Self.itemsBeforeListing:
                listings[directory] = .counting(seen + 1)
                return false
            case .counting:
                let listing = Self.list(directory)
                listings[directory] = listing
                if case .listed(let names) = listing { return !names.contains(name.hashValue) }
                return false
            case .listed(let names):
                return !names.contains(name.hashValue)
            case .unlisted:
                return false
            }
        }
    }

    private static func list(_ directory: String) -> Listing {
        guard let stream = opendir(directory) else { return .unlisted }
        defer { closedir(stream) }
        var names = Set<Int>()
        errno = 0
        while let entry = readdir(stream) {
            guard names.count < largestListing else { return .unlisted }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(cString: bytes.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            names.insert(name.hashValue)
        }
        // A listing cut short by an error would call names absent that are there.
        return errno == 0 ? .listed(names) : .unlisted
    }
}
