#!/usr/bin/env bash
# Builds afget in release mode and installs the binary, the manual page and the shell
# completions (bash, zsh, fish; Scripts/install-completions.sh):
#   Scripts/install.sh                 # into /usr/local
#   PREFIX=$HOME/.local Scripts/install.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prefix="${PREFIX:-/usr/local}"
source "$root/Scripts/packages.sh"
source "$root/Scripts/release-build.sh"
ensure_packages "${BUILD_PACKAGES[@]}"
build_release "$root"
install -d "$prefix/bin" "$prefix/share/man/man1"
install -m 0755 "$root/.build/release/afget" "$prefix/bin/afget"
install -m 0644 "$root/man/man1/afget.1" "$prefix/share/man/man1/afget.1"
echo "installed $prefix/bin/afget and $prefix/share/man/man1/afget.1"
PREFIX="$prefix" "$root/Scripts/install-completions.sh" "$prefix/bin/afget"
