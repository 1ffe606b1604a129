#!/usr/bin/env bash
# Checks afget as people get it, on this machine: the release build as Scripts/afget makes it
# (one line while it builds, its log only when it fails), then the Debian package of
# Scripts/package.sh installed with dpkg, used as a user would (afget --version, man afget, the
# completions) and removed, leaving nothing behind. Scripts/test.sh runs it after the test
# suite; it needs root or sudo, and stops where an afget package is installed already.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/Scripts/packages.sh"
ensure_packages "${BUILD_PACKAGES[@]}" man-db fish zsh
sudo=()
[ "$(id -u)" -ne 0 ] && sudo=(sudo)
scratch="$(mktemp -d)"
installed=0
cleanup() {
    # A check that failed with the package installed does not leave it installed.
    if [ "$installed" -eq 1 ]; then "${sudo[@]}" dpkg -r afget > /dev/null || true; fi
    rm -rf "$scratch"
}
trap cleanup EXIT
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

# 3. The Debian package, installed, used and removed.
if dpkg-query -W afget > /dev/null 2>&1; then fail "an afget package is installed already; remove it first (dpkg -r afget)"; fi
deb="$("$root/Scripts/package.sh" "$scratch" 2> "$scratch/package.err")" || {
    cat "$scratch/package.err" >&2
    fail "Scripts/package.sh failed"
}
mapfile -t paths < <(dpkg-deb -c "$deb" | awk '{ print substr($6, 2) }' | grep -v '^/$' | sed 's|/$||')
existing=()
for path in "${paths[@]}"; do [ -e "$path" ] && existing+=("$path"); done
"${sudo[@]}" dpkg -i "$deb" > "$scratch/dpkg.log" 2>&1 || {
    cat "$scratch/dpkg.log" >&2
    fail "dpkg -i $(basename "$deb") failed"
}
installed=1
[ "$(/usr/bin/afget --version)" = "$version" ] || fail "/usr/bin/afget --version does not say $version"
man -aw afget | grep -qx /usr/share/man/man1/afget.1.gz || fail "man -w afget does not find the package's page"
man afget 2> /dev/null | head -n 1 | grep -q '^AFGET(1)' || fail "man afget does not show afget(1)"
# Each shell as a user starts it (fish and zsh find the package's completions themselves).
home="$scratch/home"
mkdir -p "$home"
offered="$(HOME="$home" XDG_CONFIG_HOME="$home" XDG_DATA_HOME="$home" fish -c 'complete -C "afget --on-exists "' | cut -f1 | sort | tr '\n' ' ')"
[ "$offered" = "error overwrite rename skip update " ] || fail "fish offers \"$offered\" after afget --on-exists"
[ "$(HOME="$home" zsh -fc "autoload -U compinit && compinit -u -d $home/.zcompdump && print -r -- \${_comps[afget]}")" = _afget ] \
    || fail "zsh's compinit does not find _afget"
bash --norc --noprofile -c 'source /usr/share/bash-completion/completions/afget && complete -p afget' | grep -q ' afget$' \
    || fail "the bash completion does not register for afget"
"${sudo[@]}" dpkg -r afget > "$scratch/dpkg.log" 2>&1 || {
    cat "$scratch/dpkg.log" >&2
    fail "dpkg -r afget failed"
}
installed=0
if dpkg-query -W afget > /dev/null 2>&1; then fail "dpkg still knows afget after dpkg -r"; fi
for path in "${paths[@]}"; do
    if [ -e "$path" ] && [[ " ${existing[*]} " != *" $path "* ]]; then fail "dpkg -r afget left $path behind"; fi
done
echo "ok: $(basename "$deb") installed (afget --version, man afget, completions for fish, zsh and bash) and removed without a trace"
