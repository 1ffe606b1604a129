import AFGetSupport
@testable import AFGetSession
import CurlCore
import XCTest

/// Which proxy a failure names (libcurl's choice, from `-x`, the environment and no_proxy), and
/// proxy passwords kept out of what afget shows.
final class ProxyChoiceTests: XCTestCase {
    private func chosen(_ settings: ProxySettings, _ url: String) throws -> String? {
        settings.proxy(forRequestTo: try CurlURL(url))?.name
    }

    func testTheOptionWinsOverTheEnvironment() throws {
        let environment = ["http_proxy": "http://env:8080", "https_proxy": "env-tls:3128", "all_proxy": "socks5h://all"]
        let fromEnvironment = ProxySettings(environment: environment)
        XCTAssertEqual(try chosen(fromEnvironment, "http://h/f"), "env:8080")
        XCTAssertEqual(try chosen(fromEnvironment, "https://h/f"), "env-tls:3128")
        XCTAssertEqual(try chosen(ProxySettings(url: "http://u:p@given:1", environment: environment), "https://h/"), "given:1")
        XCTAssertNil(try chosen(ProxySettings(url: "", environment: environment), "http://h/"))
        // libcurl reads HTTP_PROXY in lowercase only (a CGI program's environment may hold a
        // request's Proxy header under that name); other uppercase names count.
        XCTAssertNil(try chosen(ProxySettings(environment: ["HTTP_PROXY": "http://upper:1"]), "http://h/"))
        XCTAssertEqual(try chosen(ProxySettings(environment: ["HTTPS_PROXY": "upper:1"]), "https://h/"), "upper:1")
        XCTAssertEqual(try chosen(ProxySettings(environment: ["ALL_PROXY": "socks5://s"]), "http://h/"), "s:1080")
        XCTAssertEqual(try chosen(ProxySettings(url: "https://[::1]"), "http://h/"), "[::1]:443")
    }

    func testNoProxyNamesHostsAndTheirSubdomains() throws {
        for (list, host, bypassed) in [
            ("example.com", "example.com", true), ("example.com", "www.example.com", true),
            (".example.com", "a.example.com", true), ("example.com", "badexample.com", false),
            ("localhost, 127.0.0.1", "127.0.0.1", true), ("*", "anything", true), ("", "h", false),
            ("EXAMPLE.com.", "Example.COM", true), ("::1", "[::1]", true), ("0.0.1", "10.0.0.1", false),
        ] {
            XCTAssertEqual(ProxySettings.bypasses(list, host: host), bypassed, "\(list) / \(host)")
        }
        let settings = ProxySettings(url: "http://p:1", bypass: "h", environment: ["no_proxy": "other"])
        XCTAssertNil(try chosen(settings, "http://h/"))
        XCTAssertEqual(try chosen(settings, "http://other/"), "p:1", "--noproxy replaces no_proxy")
    }

    func testProxyPasswordsAreRemovedFromText() {
        XCTAssertEqual(
            removingPasswords(inText: "Uses proxy env variable http_proxy == 'http://user:secret@proxy:3128'"),
            "Uses proxy env variable http_proxy == 'http://user@proxy:3128'")
        XCTAssertEqual(
            removingPasswords(inText: "Unsupported proxy syntax in 'user:pa%40ss@proxy:3128': bad"),
            "Unsupported proxy syntax in 'user@proxy:3128': bad")
        XCTAssertEqual(removingPasswords(inText: "Connected to 127.0.0.1 port 80"), "Connected to 127.0.0.1 port 80")
        XCTAssertEqual(removingPasswords(inText: "in 'http://u:pa/ss@p@h:9' x"), "in 'http://u@h:9' x")
    }

    /// Passwords from the environment are not escaped: any character may be in them, and
    /// libcurl quotes the value whole when it cannot use it.
    func testAnEnvironmentProxysPasswordIsNeverShownWhateverItHolds() throws {
        for password in ["pa/ss", "Sec#ret", "p@ss", "p w", "x'y", "a?b"] {
            let value = "http://alice:\(password)@127.0.0.1:9"
            let settings = ProxySettings(environment: ["http_proxy": value])
            XCTAssertEqual(try chosen(settings, "http://h/"), "127.0.0.1:9", password)
            XCTAssertEqual(settings.proxy(forRequestTo: try CurlURL("http://h/"))?.sendsCredentials, true, password)
            for said in [
                "Unsupported proxy syntax in '\(value)'", "Uses proxy env variable http_proxy == '\(value)'",
                "Could not resolve proxy: \(value)",
            ] {
                XCTAssertFalse(settings.withoutCredentials(said).contains(password), settings.withoutCredentials(said))
            }
        }
        // libcurl's error text is cut at 255 bytes, here inside a long password, before its "@".
        let long = "http://ann:" + String(repeating: "Q", count: 300) + "@bad host:1"
        let cut = String("Unsupported proxy syntax in '\(long)'".prefix(255))
        let settings = ProxySettings(environment: ["http_proxy": long])
        XCTAssertEqual(settings.withoutCredentials(cut), "Unsupported proxy syntax in 'bad host:1")
        // A proxy named like its user: the name shown is not searched again.
        let same = ProxySettings(environment: ["https_proxy": "proxy:pw@proxy:3128"])
        XCTAssertEqual(same.withoutCredentials("in 'proxy:pw@proxy:3128' and 'proxy:pw"), "in 'proxy:3128' and 'proxy:3128")
    }

    func testMalformedProxiesAreRefusedWithoutQuotingThem() {
        for good in ["", "proxy:3128", "http://u:p@proxy", "socks5h://proxy:1080", "https://[::1]:8443"] {
            XCTAssertNoThrow(try ProxySettings.check(good), good)
        }
        for bad in ["http://u:secret@proxy:99999", "ftp://u:secret@proxy", "http://u:secret@[::1"] {
            XCTAssertThrowsError(try ProxySettings.check(bad)) { error in
                XCTAssertFalse("\(error)".contains("secret"), "\(error)")
            }
        }
    }
}
