import Foundation
import TestServer
import XCTest

/// A test with two servers of its own (the same file from two sources): `server`, and `second`.
class TwoServerTestCase: ServerTestCase {
    var second: TestHTTPServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        second = try TestHTTPServer()
    }

    override func tearDownWithError() throws {
        second = nil
        try super.tearDownWithError()
    }

    /// The SHA-256 of the test directory's file `name`, nil when there is none.
    func sha(_ name: String) -> String? {
        sha256Hex(ofFile: directory.appendingPathComponent(name).path)
    }
}
