extension InputList.Entry {
    /// A file of a Metalink document as a list entry: named as the document says (below `-d`),
    /// checked against its strongest hash and its pieces' hashes, fetched from its most preferred URL with the others,
    /// in order of preference, as its mirrors.
    public init(metalinkFile file: MetalinkFile, document: String) {
        let (url, parsed) = file.urls[0]
        self.init(
            source: "\(document):\(file.line)", line: file.line, url: url, parsedURL: parsed,
            mirrors: file.urls.dropFirst().map(\.0), out: file.name, dir: nil, checksum: file.hashes.first,
            pieces: file.pieces)
    }
}
