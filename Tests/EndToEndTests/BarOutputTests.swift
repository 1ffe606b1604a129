import Foundation
import Glibc
import TestServer
import XCTest

/// Bars on a terminal: a continue said as a log says it, and items named alike while running
/// and when done.
final class BarOutputTests: ServerTestCase {
    /// The lines of every frame drawn (each ends with ESC[K), colour and other escapes removed.
    private func frameLines(_ drawn: String) -> [String] {
        drawn.components(separatedBy: "\u{1B}[K").dropLast().map { piece in
            var line = Substring(piece)
            for separator in ["\n", "\r", "\u{1B}[J"] {
                if let range = line.range(of: separator, options: .backwards) { line = line[range.upperBound...] }
            }
            return line.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        }
    }

    /// Stopped with Ctrl-C, the same command on a terminal says where it continues, as a log does.
    func testARerunInBarModeSaysWhereItContinues() throws {
        let url = server.url("/file/big.bin?size=2000000&chunk=20000&ms=20")
        let (process, _, _) = try Afget.start(["-q", url], in: directory)
        waitUntil("a checkpoint") {
            (checkpointedBytes(directory.appendingPathComponent("big.bin.afresume")) ?? 0) > 100_000
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)

        let (status, drawn) = try runInPseudoTerminal("\(Afget.binary.path) '\(url)'", in: directory)
        XCTAssertEqual(status, 0, drawn)
        XCTAssertEqual(sha256Hex(ofFile: directory.appendingPathComponent("big.bin").path), TestPayload.sha256(count: 2_000_000))
        let continuing = try XCTUnwrap(
            drawn.range(
                of: #"big\.bin: continuing at \d+% \([0-9.]+ [KM]iB of 1\.9 MiB\) from http://"#, options: .regularExpression),
            drawn.debugDescription)
        let bar = try XCTUnwrap(drawn.range(of: "% ["), drawn.debugDescription)
        XCTAssertLessThan(continuing.lowerBound, bar.lowerBound, "said above the bar, before it is drawn")
    }

    /// The bar and the done line name the item the same way: where its data goes.
    func testRunningAndDoneLinesNameTheItemAlike() throws {
        let url = server.url("/file/slow.bin?size=200000&chunk=20000&ms=100")
        let (status, drawn) = try runInPseudoTerminal("\(Afget.binary.path) -d sub '\(url)'", in: directory)
        XCTAssertEqual(status, 0, drawn)
        let bars = frameLines(drawn).filter { $0.contains("% [") }
        XCTAssertGreaterThanOrEqual(bars.count, 2, drawn.debugDescription)
        XCTAssertTrue(bars.allSatisfy { $0.hasPrefix("sub/slow.bin ") }, "\(bars)")
        XCTAssertTrue(drawn.contains("sub/slow.bin: done, 195.3 KiB"), drawn.debugDescription)
    }
}
