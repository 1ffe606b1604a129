import AFGetSupport
import CPlatform
import FoundationEssentials
import Glibc

/// Resume data kept on the part file itself, in an extended attribute, when its directory
/// refuses new files (made read-only, or immutable, while the body arrived): `DEST.afresume`
/// cannot be created there, but the part file, already open, still takes an attribute,
/// written after the data it counts was synced, as a checkpoint is. The
/// next run reads it when there is no `DEST.afresume`, and it is removed before the part is
/// moved into place, so DEST never carries it.
extension PartFile {
    private static let attributeName = "user.afget.resume"

    /// Records `data` on the part file; false when the file system takes no attributes either.
    func keep(_ data: ResumeData) -> Bool {
        let bytes = [UInt8](data.propertyList())
        guard fsetxattr(descriptor, Self.attributeName, bytes, bytes.count, 0) == 0 else { return false }
        holdsKeptResumeData = true
        return true
    }

    /// The resume data kept on the part file, if any; unusable data is a resume conflict.
    func keptResumeData() throws(TransferFailure) -> ResumeData? {
        let size = fgetxattr(descriptor, Self.attributeName, nil, 0)
        guard size > 0, size <= 1 << 20 else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        guard fgetxattr(descriptor, Self.attributeName, &bytes, size) == size else { return nil }
        do throws(ResumeDataError) {
            let data = try ResumeData(propertyList: Data(bytes))
            holdsKeptResumeData = true
            return data
        } catch {
            throw TransferFailure(.resume(.unusableKeptResumeData(partPath: path, why: error.reason)))
        }
    }

    /// Removes kept resume data (before the move into place, or when it is discarded).
    func forgetKeptResumeData() {
        _ = fremovexattr(descriptor, Self.attributeName)
        holdsKeptResumeData = false
    }
}
