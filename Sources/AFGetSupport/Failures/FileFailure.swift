import Glibc

/// A local file that cannot be made, written, synced or moved, or that is in the way.
public enum FileFailure: Sendable, Equatable {
    /// A system call on `path` failed: "cannot create f.iso.afpart: Permission denied".
    case cannot(String, path: String, errno: Int32)

    var failureClass: FailureClass { .localFile }

    var code: String {
        switch self {
        case .cannot(let action, _, _): "cannot-\(action.split(separator: " ").first ?? "")"
        }
    }

    var words: String {
        switch self {
        case .cannot(let action, let path, let code): "cannot \(action) \(path): \(describeErrno(code))"
        }
    }

    var systemErrorCode: Int32? {
        switch self {
        case .cannot(_, _, let code): code
        }
    }
}
