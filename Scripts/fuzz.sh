#!/usr/bin/env bash
# Fuzzes afget's parsers of outside input with libFuzzer (docs/testing.md, "Fuzzing"):
#   Scripts/fuzz.sh                   # every target, 1 second each (what Scripts/test.sh runs)
#   Scripts/fuzz.sh TARGET [SECONDS]  # one target (default 60 s); `all` for every one
#   Scripts/fuzz.sh --list            # the targets
# Extra libFuzzer flags go in AFGET_FUZZ_FLAGS (e.g. "-runs=1000000 -print_final_stats=1").
#
# The targets are not part of the package: this script compiles afget's own modules with
# swiftc, instrumented (-sanitize=fuzzer,address), into .build/fuzz with the harness in Fuzz/,
# so `swift build` and the package's products stay as they are. A module is compiled again only
# when its sources changed (or a module it imports did).
#
# Each run reads the seeds in Fuzz/Corpus/TARGET and keeps what it finds in
# .build/fuzz/corpus/TARGET. A failed check, a crash, a leak or a timeout stops the run with
# the input in .build/fuzz/findings/ and exits non-zero; such an input becomes a regression test
# and a file in Fuzz/Corpus/TARGET.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build="$root/.build/fuzz"
mkdir -p "$build/maps/CCurl" "$build/maps/CPlatform" "$build/corpus" "$build/findings"

# swift-argument-parser (the config file is checked against the command's options) as
# Package.resolved pins it; `swift build` has usually fetched it already.
parser="$root/.build/checkouts/swift-argument-parser/Sources"
[ -d "$parser" ] || swift package resolve >/dev/null

# The C shims' headers as modules, as SwiftPM makes them for targets with an include/ directory.
for module in CCurl CPlatform; do
    printf 'module %s {\n    umbrella header "%s"\n    export *\n}\n' \
        "$module" "$root/Sources/$module/include/$module.h" >"$build/maps/$module/module.modulemap.new"
    cmp -s "$build/maps/$module/module.modulemap.new" "$build/maps/$module/module.modulemap" \
        || mv "$build/maps/$module/module.modulemap.new" "$build/maps/$module/module.modulemap"
    rm -f "$build/maps/$module/module.modulemap.new"
done
# libxml2's headers live in a directory of their own (pkg-config says which).
read -ra libxml2_flags < <(pkg-config --cflags-only-I libxml-2.0)
includes=(-I "$build" -I "$build/maps/CCurl" -I "$build/maps/CPlatform"
    -I Sources/CLibcurl -I Sources/COpenSSL -I Sources/CZlib -I Sources/CLibXML2 "${libxml2_flags[@]}")

# A module is rebuilt when a source is newer than its object, or an earlier module was rebuilt.
rebuilt=false
stale() {
    local object="$1"
    shift
    $rebuilt || [ ! -e "$object" ] || [ -n "$(find "$@" -newer "$object" -print -quit)" ]
}

c_object() {
    local name="$1"
    if stale "$build/$name.o" "Sources/$name"; then
        clang -c -g -O1 -fsanitize=fuzzer-no-link,address -I "Sources/$name/include" \
            "Sources/$name"/*.c -o "$build/$name.o"
    fi
}

# swift_module NAME FLAVOUR DIRECTORY...: the .swift files under DIRECTORY as module NAME.
# FLAVOUR "fuzzed" adds coverage and AddressSanitizer; "plain" is for the third-party parser.
swift_module() {
    local name="$1" flavour="$2"
    shift 2
    if stale "$build/$name.o" "$@"; then
        local flags=(-Onone -gline-tables-only -swift-version 6 -package-name afget -enable-testing)
        case "$flavour" in
            fuzzed) flags+=(-sanitize=fuzzer,address) ;;
            plain) flags+=(-suppress-warnings) ;;  # its warnings are its maintainers' to fix
        esac
        local sources
        mapfile -t sources < <(find "$@" -name '*.swift' | sort)
        swiftc "${flags[@]}" -parse-as-library -wmo -module-name "$name" "${includes[@]}" \
            -emit-module -emit-module-path "$build/$name.swiftmodule" -c "${sources[@]}" -o "$build/$name.o"
        rebuilt=true
    fi
}

build_fuzzer() {
    # One build at a time: a second fuzz.sh (another terminal, a long run) waits for it.
    exec 9>"$build/build.lock"
    flock 9
    c_object CCurl
    c_object CPlatform
    swift_module ArgumentParserToolInfo plain "$parser/ArgumentParserToolInfo"
    swift_module ArgumentParser plain "$parser/ArgumentParser"
    for module in CurlCore AFGetSupport AFGetRequest AFGetSession AFGetProgress AFGetKit AFGetCLI; do
        swift_module "$module" fuzzed "Sources/$module"
    done
    swift_module AFGetFuzz fuzzed Fuzz/Harness Fuzz/Targets
    if $rebuilt || [ ! -e "$build/afget-fuzz" ]; then
        local objects=()
        for module in CCurl CPlatform ArgumentParserToolInfo ArgumentParser CurlCore AFGetSupport AFGetRequest \
            AFGetSession AFGetProgress AFGetKit AFGetCLI AFGetFuzz; do
            objects+=("$build/$module.o")
        done
        # Linked beside, then renamed: a run still going keeps the binary it started with.
        swiftc -sanitize=fuzzer,address -use-ld=lld "${objects[@]}" -lcurl -lcrypto -lz -lxml2 -o "$build/afget-fuzz.new"
        mv "$build/afget-fuzz.new" "$build/afget-fuzz"
    fi
    exec 9>&-
}

# run TARGET SECONDS: libFuzzer on one target, its log kept in .build/fuzz/TARGET.log; one line
# saying how many inputs it tried, or the log's end and a non-zero exit on a finding.
run() {
    local target="$1" seconds="$2" log="$build/$1.log"
    [ -d "Fuzz/Corpus/$target" ] || { echo "afget: no target $target (Scripts/fuzz.sh --list)" >&2; exit 2; }
    mkdir -p "$build/corpus/$target"
    local started=$SECONDS
    # TMPDIR: files a target writes (the config file's) stay in the build directory.
    rm -rf "$build/tmp/$target" && mkdir -p "$build/tmp/$target"
    # -timeout: an input taking 10 s is a hang; -rss_limit_mb: one using 2 GiB a bomb.
    # SWIFT_BACKTRACE: libFuzzer reports the failed check; Swift's own backtracer, run inside
    # AddressSanitizer, only adds a second, misleading report after it.
    local status=0
    # shellcheck disable=SC2086 # AFGET_FUZZ_FLAGS is a list of flags
    AFGET_FUZZ_TARGET="$target" SWIFT_BACKTRACE=enable=no TMPDIR="$build/tmp/$target" \
        "$build/afget-fuzz" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
        -print_final_stats=1 -artifact_prefix="$build/findings/$target-" ${AFGET_FUZZ_FLAGS:-} \
        "$build/corpus/$target" "Fuzz/Corpus/$target" >"$log" 2>&1 || status=$?
    rm -rf "$build/tmp/$target"
    if [ "$status" -ne 0 ]; then
        tail -n 40 "$log" >&2
        echo "afget: fuzz target $target failed; the input is in $build/findings/ (log: $log)" >&2
        exit 1
    fi
    local runs
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "fuzz $target: ${runs:-?} inputs in $((SECONDS - started)) s, every check held"
}

targets() { AFGET_FUZZ_TARGET=--list "$build/afget-fuzz" 2>/dev/null; }

case "${1:-}" in
    --list)
        build_fuzzer
        targets
        ;;
    "" | all)
        build_fuzzer
        for target in $(targets); do run "$target" "${2:-1}"; done
        ;;
    -*)
        sed -n 2,5p "$0" >&2
        exit 2
        ;;
    *)
        build_fuzzer
        run "$1" "${2:-60}"
        ;;
esac
