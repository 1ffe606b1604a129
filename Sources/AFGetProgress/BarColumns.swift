/// Where each part of a bar row goes, chosen once for all the rows shown together so that
/// they line up: the name column is as wide as the widest name shown (or what is left for it),
/// so the bar starts at the same column on every row, and every figure is as wide as its
/// widest form (`BarFields`), so the bar ends there too.
///
///     name            42% [=====>      ]   12.3 MiB/  27.0 MiB    5.1 MiB/s     ETA 0:03
///
/// As room runs out the name gives way first (not below `BarLayout.shortestName`), then the
/// bar; then the sizes go, then the bar, then the rest of the name. An item whose length is not
/// known has no percent, bar or ETA: its byte count goes under the others' sizes, or in its
/// ETA's place when the sizes are left out.
struct BarColumns: Equatable {
    /// Columns of the name; each row's name is cut or padded to it.
    var name: Int
    /// Columns inside the brackets; 0 for no bar.
    var bar: Int
    /// Whether the sizes ("12.3 MiB/27.0 MiB") are shown.
    var showsAmount: Bool
    /// Whether any row has a known length: without one there is no percent, bar or ETA to
    /// keep room for.
    var hasLengths: Bool

    /// Columns every row takes but the name and the bar's inside.
    private var fixed: Int {
        guard hasLengths else { return 1 + BarFields.sizeWidth + 1 + BarFields.speedWidth }
        return 1 + BarFields.percentWidth + (bar > 0 ? 3 : 0) + (showsAmount ? 1 + BarFields.amountWidth : 0)
            + 1 + BarFields.speedWidth + 1 + BarFields.etaWidth
    }

    /// The widest arrangement that fits `width` columns for names up to `nameWidth` columns,
    /// or nil when not even a one-column name fits.
    static func choose(width: Int, nameWidth: Int, hasLengths: Bool) -> BarColumns? {
        let shortest = min(nameWidth, BarLayout.shortestName)
        guard hasLengths else {
            var columns = BarColumns(name: 0, bar: 0, showsAmount: false, hasLengths: false)
            columns.name = min(nameWidth, width - columns.fixed)
            return columns.name >= min(nameWidth, 1) ? columns : nil
        }
        for showsAmount in [true, false] {
            // The bar's inside is counted apart; 1 marks that a bar is there.
            var columns = BarColumns(name: 0, bar: 1, showsAmount: showsAmount, hasLengths: true)
            let room = width - columns.fixed
            // On a wide terminal the name takes up to a third of the line and the bar the rest.
            let wanted = min(nameWidth, max(BarLayout.shortestName, width / 3))
            columns.name = min(wanted, max(shortest, room - BarLayout.shortestBar))
            columns.bar = room - columns.name
            if columns.bar >= BarLayout.shortestBar { return columns }
        }
        for least in [shortest, min(nameWidth, 1)] {
            var columns = BarColumns(name: 0, bar: 0, showsAmount: false, hasLengths: true)
            columns.name = min(nameWidth, width - columns.fixed)
            if columns.name >= least { return columns }
        }
        return nil
    }
}
