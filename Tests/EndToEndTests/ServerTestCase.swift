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

extension ServerTestCase {
    /// A first run of `url` (a `/flaky` route that drops half way) without retries: NAME.afpart
    /// holding half of its `size` bytes and resume data counting them, left for the next run.
    func leaveHalfADownload(
        of url: String, named name: String, size: Int, extra: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let first = try Afget.run(["-q", "--retry", "0"] + extra + [url], in: directory)
        XCTAssertEqual(first.status, 4, first.stderr, file: file, line: line)
        XCTAssertEqual(fileSize(directory.appendingPathComponent(name + ".afpart")), size / 2, file: file, line: line)
        XCTAssertEqual(
            checkpointedBytes(directory.appendingPathComponent(name + ".afresume")), size / 2,
            file: file, line: line)
    }
}
