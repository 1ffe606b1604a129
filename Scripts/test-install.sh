#!/usr/bin/env bash
# Checks afget as people get it, on this machine: the release build as Scripts/afget makes it
# (one line while it builds, its log only when it fails). Scripts/test.sh runs it after the
# test suite.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/Scripts/packages.sh"
ensure_packages "${BUILD_PACKAGES[@]}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
fail() {
    echo "afget: test-install: $*" >&2
    exit 1
}

# 1. Scripts/afget builds the release binary saying at most one line, what it builds and about
#    how long it takes; the build's log (ending in a linker warning) stays out of the way.
version="$("$root/Scripts/afget" --version 2> "$scratch/build.err")" || {
    cat "$scratch/build.err" >&2
    fail "Scripts/afget --version failed"
}
if [ "$(wc -l < "$scratch/build.err")" -gt 1 ] || grep -Evq '^afget: (re)?building afget \(release\)' "$scratch/build.err"; then
    cat "$scratch/build.err" >&2
    fail "Scripts/afget said more about its build than one line (above)"
fi
echo "ok: Scripts/afget ran afget ${version%% *}, saying about its build: \"$(cat "$scratch/build.err")\""

# 2. A build that fails shows its log, and runs nothing: the scripts beside a manifest that
#    does not compile.
mkdir -p "$scratch/broken/Scripts"
cp "$root/Scripts/afget" "$root/Scripts/packages.sh" "$root/Scripts/release-build.sh" "$scratch/broken/Scripts/"
printf '%s\n' '// swift-tools-version:6.0' 'import PackageDescription' 'let package = Package(name: "afget",' > "$scratch/broken/Package.swift"
status=0
"$scratch/broken/Scripts/afget" --version > "$scratch/broken.out" 2> "$scratch/broken.err" || status=$?
if [ "$status" -eq 0 ] || [ -s "$scratch/broken.out" ] || ! grep -q 'Package.swift:[0-9]*:[0-9]*: error' "$scratch/broken.err" \
    || ! tail -n 1 "$scratch/broken.err" | grep -q '^afget: the release build failed'; then
    cat "$scratch/broken.err" >&2
    fail "a failed build must show its log and exit non-zero (exit $status, above)"
fi
echo "ok: a failed build shows its log ($(wc -l < "$scratch/broken.err") lines) and exits $status"
