import AFGetKit
import ArgumentParser

/// Continuing and restarting downloads.
struct ResumeOptions: ParsableArguments {
    @Flag(name: .customLong("restart"), help: "Discard resume data and start every download from zero.")
    var restart = false

    @Flag(name: .customLong("no-restart"), help: "Fail (exit 9) instead of starting over when a continue is impossible.")
    var noRestart = false

    @Flag(
        name: [.customShort("c"), .customLong("continue")],
        help:
            "Also continue a file another tool left short, once the server confirms it (afget always continues its own).")
    var continueDownloads = false

    func validate() throws {
        if restart && noRestart { throw ValidationError("--restart and --no-restart cannot be combined") }
    }
}
