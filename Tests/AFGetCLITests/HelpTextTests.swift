@testable import AFGetCLI
import ArgumentParser
import XCTest

/// What `--help` says afget does matches what it does.
final class HelpTextTests: XCTestCase {
    /// `--help` said "HTTP and HTTPS" while FTP, FTPS, SFTP and SCP URLs download too.
    func testTheHelpNamesEveryProtocolAfgetDownloads() {
        let help = AFGetCommand.helpMessage() + AFGetCommand.helpMessage(for: DownloadCommand.self)
        XCTAssertFalse(help.contains("HTTP and HTTPS"), help)
        XCTAssertFalse(help.contains("http or https URLs"), help)
        XCTAssertTrue(help.contains("FTP, FTPS, SFTP and SCP"), help)
        // Read across the help's line breaks.
        let words = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(words.contains("and from S3 buckets"), help)
        XCTAssertTrue(words.contains("scp or s3 (s3://BUCKET/KEY"), help)
    }
}
