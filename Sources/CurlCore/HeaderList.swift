import CCurl

/// An owned `curl_slist` of header lines. libcurl keeps a pointer to the list for the whole
/// transfer, so the list lives as long as the easy handle that uses it.
public final class HeaderList {
    private(set) var raw: UnsafeMutablePointer<curl_slist>?

    public init(_ lines: [String]) {
        for line in lines {
            raw = curl_slist_append(raw, line)
        }
    }

    deinit {
        curl_slist_free_all(raw)
    }
}
