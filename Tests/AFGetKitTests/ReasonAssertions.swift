import XCTest

@testable import AFGetSupport

/// A reason as a user and a script read it: its failure's words, its code and its exit status.
/// The table tests of every failure group check their rows with it.
func assertReason(
    _ reason: FailureReason, says words: String, code: String?, exits status: Int32, file: StaticString = #filePath,
    line: UInt = #line
) {
    let failure = TransferFailure(reason)
    XCTAssertEqual(failure.message, words, "\(reason)", file: file, line: line)
    XCTAssertEqual(reason.code, code, "\(reason)", file: file, line: line)
    XCTAssertEqual(failure.exitCode, status, "\(reason)", file: file, line: line)
}
