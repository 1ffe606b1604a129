# Sourced by Scripts/afget and Scripts/package.sh: builds the release binary people run (the
# Swift runtime linked in: start-up 14 → 11 ms, and no toolchain libraries needed), quietly.
# When the build has work to do it says so in one line on stderr, with about how long it takes;
# its log, which ends even on success in a linker warning about mktemp from the static Swift
# runtime, is shown only when the build fails.
# Usage: build_release ROOT    (the binary is then ROOT/.build/release/afget)

build_release() {
    local root="$1"
    local binary="$root/.build/release/afget"
    local log="$root/.build/release-build.log"
    mkdir -p "$root/.build"
    # The times as measured on 2 cores (53 s for a first build whose dependencies were fetched).
    if [ ! -x "$binary" ]; then
        echo "afget: building afget (release) for the first time: about a minute, once its dependencies are fetched" >&2
    # The log is rewritten by every build: sources newer than it changed since the last one
    # (the binary keeps its time when a change does not alter it).
    elif [ ! -e "$log" ] || [ -n "$(find "$root/Sources" "$root/Package.swift" "$root/Package.resolved" -newer "$log" -print -quit 2>/dev/null)" ]; then
        echo "afget: rebuilding afget (release) after changes to its sources: about a minute" >&2
    fi
    local status=0
    swift build -c release --static-swift-stdlib --package-path "$root" --product afget > "$log" 2>&1 || status=$?
    if [ "$status" -ne 0 ]; then
        cat "$log" >&2
        echo "afget: the release build failed (exit $status); its log is above, and in $log" >&2
        return "$status"
    fi
}
