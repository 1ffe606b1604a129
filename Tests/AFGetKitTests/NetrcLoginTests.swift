@testable import AFGetSession
import XCTest

/// netrc's login for a host, which decides whether afget names the local user to an SSH server
/// (libcurl then skips netrc) or leaves login and password to libcurl's netrc. Rows of files.
final class NetrcLoginTests: XCTestCase {
    func testTheHostsEntryGivesItsLogin() {
        let rows: [(netrc: String, host: String, login: String?)] = [
            ("machine 127.0.0.1 login alice password secret", "127.0.0.1", "alice"),
            ("machine 127.0.0.1\n  login alice\n  password secret\n", "127.0.0.1", "alice"),
            ("machine Files.Example.ORG login bob password x", "files.example.org", "bob"),
            ("machine other login bob password x\nmachine host password y login carol", "host", "carol"),
            ("machine other login bob password x", "host", nil),
            // The host's entry without a login ends the search: the next entry is another's.
            ("machine host password y\nmachine host login dave", "host", nil),
            ("machine other login bob\ndefault login anonymous password me@", "host", "anonymous"),
            ("default login anonymous\nmachine host login erin", "host", "anonymous"),
            // A password or account value that reads as a keyword is a value.
            ("machine host password login account machine login frank", "host", "frank"),
            ("machine host login \"grace hopper\" password \"a \\\" b\"", "host", "grace hopper"),
            ("# machine host login mallory\nmachine host login heidi", "host", "heidi"),
            ("machine\thost\tlogin\tivan", "host", "ivan"),
            ("", "host", nil),
        ]
        for row in rows {
            XCTAssertEqual(NetrcLogin.login(for: row.host, in: row.netrc), row.login, row.netrc)
        }
    }

    func testAFileThatCannotBeReadHasNoLogin() {
        XCTAssertNil(NetrcLogin.login(for: "host", inFile: "/nonexistent/netrc"))
    }
}
