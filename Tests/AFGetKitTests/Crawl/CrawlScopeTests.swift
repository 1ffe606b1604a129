@testable import AFGetKit
import AFGetSupport
import XCTest

final class CrawlScopeTests: XCTestCase {
    private func url(_ text: String) -> CrawlURL { CrawlURL.normalized(text)! }

    private func scope(_ change: (inout CrawlSettings) -> Void = { _ in }, starts: [String] = ["http://h/pub/data/"])
        throws -> CrawlScope
    {
        var settings = CrawlSettings()
        change(&settings)
        return try CrawlScope(settings: settings, starts: starts.map(url))
    }

    private let page = LinkSource(url: CrawlURL.normalized("http://h/pub/data/")!, isListing: false)

    func testHostsDepthAndParent() throws {
        let plain = try scope()
        let noParent = try scope { $0.noParent = true }
        let spanning = try scope { $0.spanHosts = true }
        let domains = try scope {
            $0.spanHosts = true
            $0.domains = ["example.org,.cdn.net"]
        }
        let inf = try scope { $0.level = nil }
        let requisites = try scope {
            $0.level = 2
            $0.pageRequisites = true
        }
        let requisitesOnly = try scope {
            $0.recursive = false
            $0.pageRequisites = true
        }
        let rows: [(CrawlScope, String, LinkKind, Int, ScopeVerdict, UInt)] = [
            (plain, "http://h/pub/data/a.txt", .page, 1, .fetch(keep: true), #line),
            (plain, "http://h:8080/pub/data/a.txt", .page, 1, .skip(.otherHost), #line),
            // The same host by another scheme, each on its default port.
            (plain, "https://h/pub/data/a.txt", .page, 1, .fetch(keep: true), #line),
            (plain, "http://other/x", .requisite, 1, .skip(.otherHost), #line),
            (plain, "http://h/pub/", .page, 1, .fetch(keep: true), #line),
            (plain, "http://h/deep", .page, 5, .fetch(keep: true), #line),
            (plain, "http://h/deep", .page, 6, .skip(.tooDeep), #line),
            (plain, "http://h/img.png", .requisite, 6, .skip(.tooDeep), #line),
            (inf, "http://h/deep", .page, 1000, .fetch(keep: true), #line),
            (requisites, "http://h/deep", .page, 3, .skip(.tooDeep), #line),
            (requisites, "http://h/img.png", .requisite, 3, .fetch(keep: true), #line),
            (requisites, "http://h/img.png", .requisite, 4, .skip(.tooDeep), #line),
            (requisitesOnly, "http://h/pub/data/next.html", .page, 1, .skip(.tooDeep), #line),
            (requisitesOnly, "http://h/style.css", .requisite, 1, .fetch(keep: true), #line),
            (noParent, "http://h/pub/", .page, 1, .skip(.aboveStart), #line),
            (noParent, "http://h/pub/data", .page, 1, .skip(.aboveStart), #line),
            (noParent, "http://h/pub/data/sub/", .page, 1, .fetch(keep: true), #line),
            (noParent, "http://h/static/site.css", .requisite, 1, .fetch(keep: true), #line),
            (spanning, "http://other/x", .page, 1, .fetch(keep: true), #line),
            (domains, "http://example.org/x", .page, 1, .fetch(keep: true), #line),
            (domains, "http://www.example.org/x", .page, 1, .fetch(keep: true), #line),
            (domains, "http://img.cdn.net/x.png", .requisite, 1, .fetch(keep: true), #line),
            (domains, "http://notexample.org/x", .page, 1, .skip(.otherHost), #line),
            (domains, "http://h/pub/data/x", .page, 1, .fetch(keep: true), #line),
        ]
        for (scope, link, kind, depth, expected, line) in rows {
            XCTAssertEqual(scope.verdict(for: url(link), kind: kind, depth: depth, from: page), expected, line: line)
        }
    }

    func testNoParentIsPerStartHost() throws {
        let scope = try scope(
            {
                $0.noParent = true
                $0.spanHosts = true
            }, starts: ["http://h/pub/data/file.html", "http://g/docs/"])
        XCTAssertEqual(scope.verdict(for: url("http://h/pub/data/x/"), kind: .page, depth: 1, from: page), .fetch(keep: true))
        XCTAssertEqual(scope.verdict(for: url("http://g/docs/a"), kind: .page, depth: 1, from: page), .fetch(keep: true))
        XCTAssertEqual(scope.verdict(for: url("http://g/pub/data/x"), kind: .page, depth: 1, from: page), .skip(.aboveStart))
        // A host no start names has no parent to stay below.
        XCTAssertEqual(scope.verdict(for: url("http://k/anything"), kind: .page, depth: 1, from: page), .fetch(keep: true))
    }

    func testAcceptAndRejectNames() throws {
        let accepting = try scope { $0.accept = ["*.iso,txt"] }
        let rejecting = try scope { $0.reject = ["index.html*", "*.tmp"] }
        let rows: [(CrawlScope, String, LinkKind, ScopeVerdict, UInt)] = [
            (accepting, "http://h/pub/data/x.iso", .page, .fetch(keep: true), #line),
            (accepting, "http://h/pub/data/notes.txt", .page, .fetch(keep: true), #line),
            (accepting, "http://h/pub/data/a.zip", .page, .skip(.name), #line),
            (accepting, "http://h/pub/data/logo.png", .requisite, .skip(.name), #line),
            // A page whose name is refused is still read for its links, then removed.
            (accepting, "http://h/pub/data/sub/", .page, .fetch(keep: false), #line),
            (accepting, "http://h/pub/data/list.html", .page, .fetch(keep: false), #line),
            (accepting, "http://h/pub/data/README", .page, .fetch(keep: false), #line),
            (rejecting, "http://h/pub/data/sub/", .page, .fetch(keep: false), #line),
            (rejecting, "http://h/pub/data/index.html", .page, .fetch(keep: false), #line),
            (rejecting, "http://h/pub/data/x.tmp", .page, .skip(.name), #line),
            (rejecting, "http://h/pub/data/x.iso", .page, .fetch(keep: true), #line),
        ]
        for (scope, link, kind, expected, line) in rows {
            XCTAssertEqual(scope.verdict(for: url(link), kind: kind, depth: 1, from: page), expected, line: line)
        }
    }

    func testRegexesDecideWhetherAURLIsFetched() throws {
        let scope = try scope {
            $0.acceptRegex = "/pub/(data|data/.*)$"
            $0.rejectRegex = "\\?action=edit|/private/"
        }
        let rows: [(String, ScopeVerdict, UInt)] = [
            ("http://h/pub/data/a.txt", .fetch(keep: true), #line),
            ("http://h/pub/data/private/a.txt", .skip(.pattern), #line),
            ("http://h/pub/data/page?action=edit", .skip(.pattern), #line),
            ("http://h/pub/other", .skip(.pattern), #line),
        ]
        for (link, expected, line) in rows {
            XCTAssertEqual(scope.verdict(for: url(link), kind: .page, depth: 1, from: page), expected, line: line)
        }
    }

    func testARegexRegcompRefusesIsAnInputFailure() {
        XCTAssertThrowsError(try scope { $0.rejectRegex = "a(b" }) { error in
            guard let failure = error as? TransferFailure,
                case .input(.patternInvalid(let option, let pattern, _)) = failure.reason
            else { return XCTFail("\(error)") }
            XCTAssertEqual(option, "--reject-regex")
            XCTAssertEqual(pattern, "a(b")
        }
    }

    func testListingSortLinksAndParentAreNeverFollowed() throws {
        let scope = try scope()
        let listing = LinkSource(url: url("http://h/pub/data/"), isListing: true)
        let rows: [(String, LinkSource, ScopeVerdict, UInt)] = [
            ("http://h/pub/data/?C=M;O=D", listing, .skip(.listingNavigation), #line),
            ("http://h/pub/data/?C=N&O=A", listing, .skip(.listingNavigation), #line),
            // A sort link is the same listing again, on any page.
            ("http://h/pub/data/?C=S;O=A", page, .skip(.listingNavigation), #line),
            // Caddy's file_server browse: its listing has no title to tell it, its sort links
            // are the same path with `sort` and `order`.
            ("http://h/pub/data/?sort=name&order=asc", page, .skip(.listingNavigation), #line),
            ("http://h/pub/data/?sort=namedirfirst&order=desc", page, .skip(.listingNavigation), #line),
            ("http://h/pub/", listing, .skip(.listingNavigation), #line),
            ("http://h/", listing, .skip(.listingNavigation), #line),
            ("http://h/pub/", page, .fetch(keep: true), #line),
            ("http://h/pub/data/sub/", listing, .fetch(keep: true), #line),
            ("http://h/pub/data/?page=2", listing, .fetch(keep: true), #line),
            ("http://h/pub/data/?sort=name", page, .fetch(keep: true), #line),
        ]
        for (link, source, expected, line) in rows {
            XCTAssertEqual(scope.verdict(for: url(link), kind: .page, depth: 1, from: source), expected, line: line)
        }
    }

    func testRedirectsAreJudgedAsLinks() throws {
        let scope = try scope { $0.noParent = true }
        let from = url("http://h/pub/data/old")
        XCTAssertTrue(scope.admitsRedirect(to: url("http://h/pub/data/new"), kind: .page, depth: 1, from: from))
        XCTAssertFalse(scope.admitsRedirect(to: url("http://mirror/pub/data/new"), kind: .page, depth: 1, from: from))
        XCTAssertFalse(scope.admitsRedirect(to: url("http://h/elsewhere"), kind: .page, depth: 1, from: from))
        XCTAssertTrue(scope.admitsRedirect(to: url("http://h/elsewhere.css"), kind: .requisite, depth: 1, from: from))
        let spanning = try self.scope {
            $0.spanHosts = true
            $0.domains = ["mirror"]
        }
        XCTAssertTrue(spanning.admitsRedirect(to: url("http://mirror/pub/data/new"), kind: .page, depth: 1, from: from))
    }

    func testNamePatterns() {
        let rows: [([String], String, Bool, UInt)] = [
            (["*.iso"], "x.iso", true, #line),
            (["*.iso"], "x.iso.part", false, #line),
            (["iso"], "x.iso", true, #line),
            (["pdf,iso"], "a.pdf", true, #line),
            (["index.html*"], "index.html?C=M;O=D", true, #line),
            (["file-[0-9].txt"], "file-7.txt", true, #line),
            (["file-[0-9].txt"], "file-x.txt", false, #line),
            (["?.txt"], "ab.txt", false, #line),
            ([], "anything", false, #line),
        ]
        for (lists, name, matches, line) in rows {
            XCTAssertEqual(NamePatterns(lists).matchesAny(name), matches, line: line)
        }
    }
}
