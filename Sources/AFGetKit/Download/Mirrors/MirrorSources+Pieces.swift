import AFGetProgress

extension MirrorSources {
    /// A piece that did not match its hash is fetched again from a source that wrote none of
    /// it; a source that alone wrote it is dropped (when several did, none is known to be at
    /// fault). Nil when no such source is left, and nobody is dropped. Else the sources that
    /// wrote it, which the piece's new request avoids, and what to tell people, if anything.
    mutating func blame(_ mismatch: PieceCheck.Mismatch, of info: ItemInfo) -> (writers: Set<Int>, said: ItemEvent?)? {
        let writers = writers(of: mismatch.range)
        guard hasUsable(otherThan: writers) else { return nil }
        let reason = DownloadNotices.pieceDidNotMatch(mismatch)
        guard writers.count == 1, let writer = writers.first else {
            return (writers, .notice(DownloadNotices.pieceAgain(info.path, mismatch)))
        }
        // Said once: a source already dropped is not dropped again.
        let said: ItemEvent? =
            drop(writer, because: reason) ? .sourceDropped(info, source: sources[writer].url, reason: reason) : nil
        return (writers, said)
    }
}
