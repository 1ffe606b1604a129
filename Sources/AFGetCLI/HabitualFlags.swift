import AFGetKit
import ArgumentParser

/// curl's and wget's flags whose meaning is what afget does anyway, taken so that a pasted
/// `curl -fSLO URL` or `wget -nc URL` runs (as `-O` and `-L` are). A flag that means something
/// else to afget is not here: `PeerHabits` answers it with afget's way before parsing.
struct HabitualFlags: ParsableArguments {
    @Flag(
        name: [.customShort("f"), .customLong("fail")],
        help: "Accepted for curl users: an HTTP error status fails the item (exit 8) and no error page is kept, already.")
    var fail = false

    @Flag(
        name: [.customShort("S"), .customLong("show-error")],
        help: "Accepted for curl users: failures are shown already, with -q too.")
    var showError = false

    @Flag(
        name: [.customLong("no-clobber"), .customLong("nc", withSingleDash: true)],
        help: "Accepted for wget users: a file that exists is kept already (--on-exists skip).")
    var noClobber = false

    @Flag(
        name: .customLong("create-dirs"),
        help: "Accepted for curl users: missing directories of -o and -d are created already.")
    var createDirs = false

    /// wget's `-nc` keeps what exists; an `--on-exists` that replaces it says the opposite.
    func validate(onExists: OnExistsPolicy) throws {
        if noClobber && (onExists == .overwrite || onExists == .update) {
            throw ValidationError(
                "-nc/--no-clobber keeps a file that exists and --on-exists \(onExists.rawValue) replaces it: give one")
        }
    }
}
