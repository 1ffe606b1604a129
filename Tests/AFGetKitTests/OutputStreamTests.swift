import AFGetSupport
import AFGetKit
import XCTest

/// Paths that name afget's own standard streams, which `-o`, `--report` and `--cookie-jar`
/// treat as those streams rather than as files.
final class OutputStreamTests: XCTestCase {
    func testStandardStreamsAreKnownByEveryName() {
        for path in ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"] {
            XCTAssertEqual(OutputStream.named(path)?.descriptor, 1, path)
        }
        for path in ["/dev/stderr", "/dev/fd/2", "/proc/self/fd/2"] {
            XCTAssertEqual(OutputStream.named(path)?.descriptor, 2, path)
        }
        for path in ["/dev/null", "/dev/stdin", "/dev/fd/0", "/dev/fd/3", "stdout", "/dev/stdout/", "-"] {
            XCTAssertNil(OutputStream.named(path), path)
        }
    }
}
