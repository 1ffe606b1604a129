import AFGetRequest
import AFGetSupport
import CurlCore

/// Decides whether and how a redirect is followed. afget follows redirects itself (libcurl's
/// FOLLOWLOCATION is off) so that these rules hold on every libcurl version:
/// only http and https, never from HTTPS down to HTTP, at most `maxRedirects` hops, and
/// user headers and credentials never travel to another origin.
public struct RedirectPolicy: Sendable, Equatable {
    public var follow: Bool
    public var maxRedirects: Int

    public init(follow: Bool = true, maxRedirects: Int = 10) {
        self.follow = follow
        self.maxRedirects = maxRedirects
    }

    public enum Decision: Sendable, Equatable {
        /// Send this request next.
        case follow(HTTPRequest)
        /// Not following (`--no-follow`): the redirect response is the final response.
        case deliver
        /// Stop with this failure.
        case refuse(TransferFailure)
    }

    /// The request for the next hop after `request` got `status` with a Location of `target`
    /// (already resolved to an absolute URL), `redirectsSoFar` hops into the chain.
    public func next(after request: HTTPRequest, status: Int, target: String, redirectsSoFar: Int) -> Decision {
        guard follow else { return .deliver }
        guard redirectsSoFar < maxRedirects else {
            return .refuse(TransferFailure(.response(.tooManyRedirects(limit: maxRedirects))))
        }
        // Bytes, not characters: ":" followed by a combining mark is one Character that is not
        // ":", and the whole target, password and all, would be taken for the scheme.
        let scheme = String(decoding: target.utf8.prefix { $0 != UInt8(ascii: ":") }, as: UTF8.self).lowercased()
        // A target without "://" (malformed) has whatever looks like user:password@ removed.
        let shownTarget =
            Array(target.utf8).firstRange(of: Array("://".utf8)) == nil
            ? removingPasswords(inText: target) : removingPassword(from: target)
        guard scheme == "http" || scheme == "https" else {
            return .refuse(TransferFailure(.response(.redirectToScheme(scheme, target: shownTarget))))
        }
        let url: CurlURL
        do {
            url = try CurlURL(target)
        } catch {
            return .refuse(TransferFailure(.response(.redirectMalformed(target: shownTarget))))
        }
        if request.url.scheme == "https" && url.scheme == "http" {
            return .refuse(TransferFailure(.response(.redirectToHTTP(target: shownTarget))))
        }

        var next = request
        next.url = url
        if url.origin != request.url.origin {
            next.headers.removeAll { $0.scope == .sameOriginOnly }
        }
        // As browsers and curl do: 303 always becomes GET, and 301/302 turn a POST into a GET.
        if (status == 303 && request.method != "HEAD") || ([301, 302].contains(status) && request.method == "POST") {
            next.method = "GET"
            next.body = .none
        }
        return .follow(next)
    }
}
