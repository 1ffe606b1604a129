import AFGetSupport

/// `--progress auto|bar|line|json|none`.
public enum ProgressStyle: String, Sendable, CaseIterable {
    case auto, bar, line, json, none

    /// The renderer for this style. `auto` is a bar when stderr is a terminal, lines otherwise;
    /// JSON goes to stdout unless stdout carries data.
    public func makeRenderer(stdoutCarriesData: Bool, showsSummary: Bool) -> ProgressRenderer {
        let errors = OutputStream.standardError
        switch self {
        case .auto:
            return errors.isTerminal
                ? ProgressStyle.bar.makeRenderer(stdoutCarriesData: stdoutCarriesData, showsSummary: showsSummary)
                : LineRenderer(showsSummary: showsSummary)
        case .bar:
            return BarRenderer(useColor: colorAllowed(on: errors), showsSummary: showsSummary)
        case .line:
            return LineRenderer(showsSummary: showsSummary)
        case .json:
            return JSONRenderer(stream: stdoutCarriesData ? errors : .standardOutput)
        case .none:
            return QuietRenderer(showsSummary: showsSummary)
        }
    }
}
