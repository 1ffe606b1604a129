import Foundation
import TestServer
import XCTest

/// An end-to-end test with a test server of its own and an empty directory to run afget in.
class ServerTestCase: XCTestCase {
    var server: TestHTTPServer!
    var directory: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try TestHTTPServer()
        directory = try makeScratchDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
        server = nil
        try super.tearDownWithError()
    }
}
