import AFGetProgress
import AFGetKit
import ArgumentParser

/// What people and scripts see while transfers run.
struct ProgressOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "auto (a bar on a terminal, lines otherwise), bar, line, json or none.", valueName: "style"))
    var progress: ProgressStyle = .auto

    @Flag(name: [.short, .long], help: "No progress and no notices; failures are still reported.")
    var quiet = false

    @Flag(
        name: .customLong("show-progress"),
        help: "Progress with -q too, as wget's -q --show-progress (without -q it is shown anyway).")
    var showProgress = false

    var style: ProgressStyle { quiet && !showProgress ? .none : progress }
}

extension ProgressStyle: ExpressibleByArgument {}
