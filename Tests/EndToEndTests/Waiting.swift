import Foundation
import XCTest

/// Waits for a condition by polling it, failing the test after `timeout` seconds: tests wait
/// on what they can observe (a file growing, a process ending), never on a fixed sleep.
func waitUntil(
    timeout: Double = 20, _ what: String, file: StaticString = #filePath, line: UInt = #line,
    _ condition: () throws -> Bool
) rethrows {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return }
        usleep(5_000)
    }
    XCTFail("timed out after \(timeout) s waiting for \(what)", file: file, line: line)
}

func fileSize(_ url: URL) -> Int? {
    (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
}

func exists(_ url: URL) -> Bool {
    FileManager.default.fileExists(atPath: url.path)
}
