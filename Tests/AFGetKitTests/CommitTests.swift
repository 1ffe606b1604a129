import AFGetSupport
import AFGetKit
import Foundation
import XCTest

/// Part files moved into place together: every file lands whole, and one that cannot be moved
/// keeps its data without holding back the others committed with it.
final class CommitTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("commit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: directory)
    }

    /// A part file for `directory/name` holding `bytes`, committed; each is made inside the
    /// task that commits it, so several commit at once.
    private static func commit(_ name: String, in directory: String, holding bytes: [UInt8], lastModified: Int64? = nil)
        async throws -> String
    {
        let part = try PartFile.open(for: directory + "/" + name, replacing: false)
        XCTAssertEqual(bytes.withUnsafeBytes { pwrite(part.descriptor, $0.baseAddress, $0.count, 0) }, bytes.count)
        try await part.commit(lastModified: lastModified, through: GroupCommit(disk: DiskThread()))
        return part.path
    }

    func testFilesCommittedAtOnceAllLandWhole() async throws {
        let path = directory.path
        try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<40 {
                group.addTask {
                    try await Self.commit(
                        "f\(index).bin", in: path, holding: Array(repeating: UInt8(index), count: 1000 + index),
                        lastModified: 1_000_000_000)
                }
            }
            try await group.waitForAll()
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        XCTAssertEqual(names, (0..<40).map { "f\($0).bin" }.sorted(), "no part file left")
        for index in 0..<40 {
            let path = directory.appendingPathComponent("f\(index).bin").path
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), Data(repeating: UInt8(index), count: 1000 + index))
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            XCTAssertEqual((attributes[.modificationDate] as? Date)?.timeIntervalSince1970, 1_000_000_000)
        }
    }

    func testAFileThatCannotBeMovedKeepsItsDataAndTheOthersLand() async throws {
        let blocked = directory.appendingPathComponent("blocked.bin")
        try FileManager.default.createDirectory(at: blocked.appendingPathComponent("inside"), withIntermediateDirectories: true)
        let path = directory.path
        async let goodResult = Self.commit("good.bin", in: path, holding: [1, 2, 3])
        async let stuckResult = Self.commit("blocked.bin", in: path, holding: [4, 5, 6])
        _ = try await goodResult
        let stuck = blocked.path + PartFile.suffix
        do {
            _ = try await stuckResult
            XCTFail("a directory cannot be replaced by a file")
        } catch {
            let failure = try XCTUnwrap(error as? TransferFailure)
            XCTAssertEqual(failure.kind, .localFile)
            XCTAssertTrue(failure.message.hasPrefix("cannot move \(stuck) to \(blocked.path): "), failure.message)
            XCTAssertTrue(failure.message.hasSuffix(": Is a directory"), failure.message)
        }
        XCTAssertEqual(try Data(contentsOf: directory.appendingPathComponent("good.bin")), Data([1, 2, 3]))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: stuck)), Data([4, 5, 6]))
    }
}
