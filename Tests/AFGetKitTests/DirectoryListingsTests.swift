@testable import AFGetKit
import Foundation
import XCTest

/// A destination directory is listed once enough items go into it; from then on a name it did
/// not hold needs no look-up, and every name it held is still looked up.
final class DirectoryListingsTests: XCTestCase {
    func testADirectoryIsListedOnceManyItemsGoIntoIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("listings-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for name in ["here.bin", "here.bin.afpart", "数据.bin"] {
            XCTAssertTrue(FileManager.default.createFile(atPath: "\(directory)/\(name)", contents: Data([1])))
        }
        let listings = DirectoryListings()
        for index in 1..<DirectoryListings.itemsBeforeListing {
            XCTAssertFalse(listings.isAbsent("\(directory)/new-\(index).bin"), "looked up until the listing pays")
        }
        XCTAssertTrue(listings.isAbsent("\(directory)/new.bin"), "listed: a name it did not hold")
        for name in ["here.bin", "here.bin.afpart", "数据.bin"] {
            XCTAssertFalse(listings.isAbsent("\(directory)/\(name)"), "\(name) was there: it is looked up")
        }
        XCTAssertFalse(listings.isAbsent("\(directory)-other/new.bin"), "another directory counts on its own")
    }

    func testADirectoryThatCannotBeReadIsNeverTakenAsEmpty() {
        let listings = DirectoryListings()
        for index in 0...DirectoryListings.itemsBeforeListing {
            XCTAssertFalse(listings.isAbsent("/nonexistent-afget-directory/\(index).bin"))
        }
    }
}
