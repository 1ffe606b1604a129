/// A link as a document wrote it, before it is resolved against the document's URL.
public struct FoundLink: Sendable, Equatable {
    public let reference: String
    public let kind: LinkKind

    public init(_ reference: String, _ kind: LinkKind) {
        self.reference = reference
        self.kind = kind
    }
}

/// What a document says of where it leads: its links in document order, and what decides how
/// they are read.
public struct PageLinks: Sendable, Equatable {
    public var links: [FoundLink] = []
    /// `<base href>` as written (the first one): what the links are resolved against.
    public var base: String?
    /// `<meta name="robots" content="nofollow">` (or `none`): its page links are not followed.
    public var noFollow = false
    /// An autoindex listing (Apache, nginx, lighttpd, python's http.server), told by its title.
    public var isListing = false

    public init(links: [FoundLink] = [], base: String? = nil, noFollow: Bool = false, isListing: Bool = false) {
        self.links = links
        self.base = base
        self.noFollow = noFollow
        self.isListing = isListing
    }
}
