import AFGetKit
import AFGetSupport

/// A Metalink v4 document (`--metalink`), read by libxml2: a document is used whole or refused
/// whole, and what a used one holds is what afget will act on.
enum MetalinkTarget: FuzzTarget {
    static let name = "metalink"

    static func fuzz(_ input: [UInt8]) {
        let files: [MetalinkFile]
        do {
            files = try MetalinkReader.files(in: input, name: "d.meta4")
        } catch {
            expect(error.item == "d.meta4" || error.item.hasPrefix("d.meta4:"), "a refusal naming \(error.item)")
            expect(error.exitCode == 2 && !error.failure.message.isEmpty, "a refusal without a cause")
            return
        }
        expect(!files.isEmpty, "a document used for no file")
        let hexDigits = "0123456789abcdef".utf8
        for file in files {
            let parts = file.name.split(separator: "/", omittingEmptySubsequences: false)
            expect(
                !file.name.hasPrefix("/") && !parts.contains("..") && !parts.contains("") && parts.last != ".",
                "a name out of the directory: \(file.name)")
            expect(file.line >= 1, "a file on line \(file.line)")
            expect(!file.urls.isEmpty, "a file with no URL")
            for url in file.urls {
                expect(url.parsed.isHTTP || url.parsed.isRemoteFile, "a URL of scheme \(url.parsed.scheme)")
            }
            expect(file.size.map { $0 >= 0 } ?? true, "a size below 0")
            for hash in file.hashes {
                expect(
                    hash.hex.utf8.count == hash.algorithm.hexLength && hash.hex.utf8.allSatisfy(hexDigits.contains),
                    "a hash no digest can equal: \(hash)")
            }
            expect(
                zip(file.hashes, file.hashes.dropFirst()).allSatisfy { $0.algorithm.hexLength >= $1.algorithm.hexLength },
                "hashes not strongest first")
            if let pieces = file.pieces {
                expect(pieces.length > 0, "pieces of length 0")
                if let size = file.size {
                    expect(Int64(pieces.hashes.count) == (size == 0 ? 0 : (size - 1) / pieces.length + 1), "piece count")
                }
            }
        }
        // The same bytes read again give the same files: nothing depends on libxml2's state.
        let again = try? MetalinkReader.files(in: input, name: "d.meta4")
        expect(again?.map(\.name) == files.map(\.name), "a second read disagrees")
    }
}
