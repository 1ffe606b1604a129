#!/usr/bin/env bash
# Runs the whole test suite: unit, integration (a test server in the test process),
# end-to-end (the built afget binary) and the nginx smoke test. Installs what they need.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/Scripts/packages.sh"
# nginx-light for the smoke test, bsdutils for script(1), which gives the bar test a terminal,
# openssl for the CA directory test (c_rehash names), gzip for compressed bodies.
ensure_packages "${BUILD_PACKAGES[@]}" nginx-light bsdutils coreutils openssl gzip
cd "$root"
swift build --build-tests
swift test --skip-build "$@"
