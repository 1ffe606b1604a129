@testable import AFGetCLI
import XCTest

/// URLs as people type them on the command line: without a scheme they are http, as curl and
/// wget read them; a local path stays a path.
final class TypedURLTests: XCTestCase {
    func testAWordWithoutASchemeIsHTTPUnlessItIsALocalPath() {
        let cases: [(typed: String, read: String)] = [
            ("example.org/file", "http://example.org/file"),
            ("127.0.0.1:8080/x", "http://127.0.0.1:8080/x"),
            ("localhost:8080", "http://localhost:8080"),
            ("example.org", "http://example.org"),
            // curl and wget alike: a lone name is a host.
            ("file.txt", "http://file.txt"),
            ("[::1]:8080/x", "http://[::1]:8080/x"),
            ("https://example.org/f", "https://example.org/f"),
            ("HTTP://example.org/f", "HTTP://example.org/f"),
            ("ftp://ftp.example.org/f", "ftp://ftp.example.org/f"),
            ("gopher://h/f", "gopher://h/f"),
            ("/srv/file", "/srv/file"),
            ("./file", "./file"),
            ("../file", "../file"),
            ("~/file", "~/file"),
            (".", "."),
            ("..", ".."),
            ("", ""),
        ]
        for (typed, read) in cases {
            XCTAssertEqual(TypedURL.completed(typed), read, typed)
        }
    }

    /// What `PeerHabits` counts as a URL beside wget's `-O FILE`: a host and a path.
    func testAHostAndAPathAreToldFromAFileName() {
        for word in ["example.org/f.iso", "127.0.0.1:8080/x", "localhost/x", "[::1]:80/x"] {
            XCTAssertTrue(TypedURL.isHostAndPath(word), word)
        }
        for word in ["out.html", "pages/out.html", "./x/y", "/srv/x", "-o", "https://h/f", "example.org"] {
            XCTAssertFalse(TypedURL.isHostAndPath(word), word)
        }
    }
}
