import AFGetProgress

/// Where the driver takes a run's items from: a list (`ItemFeed`) or a recursive download
/// (`Crawl`). Items cross from the source's own thread in blocks; the driver calls everything
/// here on the curl thread, so nothing here may wait, except `nextBlockAfterStop` (the runner's,
/// once the driver is done).
protocol ItemSource: AnyObject, Sendable {
    /// How many items there are, when known before the run.
    var knownCount: Int? { get }
    /// What the source has for the driver now: items in order, or `[.notYet]` (it calls the
    /// wake given to `onMore` when there is more), or `[.end]`.
    func nextBlock() -> [NextItem]
    func onMore(_ wake: @escaping @Sendable () -> Void)
    /// Each item's end (its file in place, or not): a crawl reads its pages for links. Only a
    /// hand-over: the reading is done on the source's thread.
    func itemEnded(_ record: ItemRecord)
    /// After the run stopped: the items not started, a block at a time, for the report; ends
    /// with `[.end]`.
    func nextBlockAfterStop() -> [NextItem]
    /// Judges each item's redirects as they arrive (a crawl's scope); nil follows every one.
    var redirectJudge: RedirectJudge? { get }
    /// What the source adds to the run's summary (a shard's count, a crawl's).
    func describe(in summary: inout RunSummary)
    /// The run is over: the source's thread stops.
    func close()
}

extension ItemFeed: ItemSource {
    /// A list has nothing to learn from an item's end.
    func itemEnded(_ record: ItemRecord) {}

    func describe(in summary: inout RunSummary) {
        summary.shard = shardCount
    }

    var redirectJudge: RedirectJudge? { nil }
}
