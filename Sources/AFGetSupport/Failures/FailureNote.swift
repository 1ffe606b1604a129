/// What more is said of a failure than its reason: where it happened, how long it was tried,
/// where its data is left. Each note puts its words around the failure's words, once, here.
public indirect enum FailureNote: Sendable, Equatable {
    /// Where it happened, said before it: a list's line, a document's file ("list.txt:3: …").
    case at(String)
    /// A transient failure that outlasted every attempt.
    case afterAttempts(Int)
    /// A list entry that is left out, and the URL it named.
    case notUsing(url: String)
    case notDownloading(url: String)
    /// A Metalink file's sources all failed; the failure is the last one's.
    case everySourceFailed(count: Int)

    /// `words`, with this note said of them.
    func around(_ words: String) -> String {
        switch self {
        case .at(let place): "\(place): \(words)"
        case .afterAttempts(let count): "\(words) (after \(count) attempts)"
        case .notUsing(let url): "\(words); not using \(url)"
        case .notDownloading(let url): "\(words); not downloading \(url)"
        case .everySourceFailed(let count): "every source failed (\(count) of them); the last: \(words)"
        }
    }
}
