import AFGetKit

/// A recursive download as the command line asks for it: what the driver's `Crawl` is made
/// from, and the `--on-exists` its items run with.
struct CrawlRequest: Equatable {
    let settings: CrawlSettings
    /// The URLs as given (a URL without a scheme completed as http).
    let starts: [String]
    let onExists: OnExistsPolicy
}
