import Glibc

/// The text of an errno value, e.g. "No space left on device".
public func describeErrno(_ code: Int32) -> String {
    String(cString: strerror(code))
}

/// A local file failure naming the path and the system's reason.
public func fileFailure(_ action: FileAction, _ path: String, errno code: Int32) -> TransferFailure {
    TransferFailure(.file(.cannot(action, path: path, errno: code)))
}
