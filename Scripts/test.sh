#!/usr/bin/env bash
# Runs the whole test suite: the format check (Scripts/format.sh --check), unit, integration
# (a test server in the test process), end-to-end (the built afget binary) and the nginx smoke
# test; every fuzz target briefly (Scripts/fuzz.sh); then the release build as Scripts/afget
# makes it and the Debian package installed and removed (Scripts/test-install.sh), the smoke,
# signal and resume tests again against the release binary, and docs/fleet.md's recipes run for
# real (Scripts/fleet-test.sh). Installs what they need.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/Scripts/packages.sh"
# nginx-light for the smoke test, bsdutils for script(1), which gives the bar test a terminal,
# openssl for the CA directory test (c_rehash names), gzip for compressed bodies, zsh and fish
# for the completion tests, tmux for the bar tests that read the screen as a person sees it;
# the FTP and SSH servers of FTPTests and SFTPTests: pyftpdlib (Debian's python3), vsftpd (FTPS),
# OpenSSH's sshd (with ssh-keygen) for keys and the agent, and asyncssh (Debian's python3) for
# password logins: Scripts/sftp-password-server.py, a user database of its own, as sshd checks
# passwords against system accounts; wget2 for CrawlVersusWget2Tests, a crawl compared with its.
ensure_packages "${BUILD_PACKAGES[@]}" nginx-light bsdutils coreutils openssl gzip jq zsh fish tmux \
    python3 python3-pyftpdlib vsftpd openssh-server openssh-client python3-asyncssh wget2
# moto's S3 server and boto3 for S3Tests and README's S3 examples: Debian 12 has no python3-moto,
# so pip's (with Debian's pip, into the user's site: a system Python refuses otherwise, PEP 668).
if ! python3 -c 'import moto.server, boto3' 2>/dev/null; then
    python3 -m pip --version >/dev/null 2>&1 || ensure_packages python3-pip
    echo "afget tests: installing moto[server] and boto3 with pip" >&2
    python3 -m pip install -q 'moto[server]' boto3 2>/dev/null \
        || python3 -m pip install -q --user --break-system-packages 'moto[server]' boto3
fi
cd "$root"
# Formatting first: a second before the build, and the tree stays in one style (.swift-format).
if [ $# -eq 0 ]; then Scripts/format.sh --check; fi
swift build --build-tests
# One test per process, as many at once as there are processors: the end-to-end tests mostly
# wait on servers and on afget, and every one has its own scratch directory, servers on ports
# the kernel picked, and its own tmux socket (about 5 rather than 9 minutes on 2 cores).
swift test --skip-build --parallel "$@"
# Every fuzz target briefly (docs/testing.md, "Fuzzing"): its corpus replayed, each input a
# past finding or a seed, then a second of new inputs; about a minute with the fuzzer's build.
if [ $# -eq 0 ]; then Scripts/fuzz.sh; fi
# The binary people run (Scripts/afget, install.sh) is the release build with the Swift runtime
# linked in: the nginx smoke test and the signal and resume tests run against it as well
# (the whole suite only, not when a filter or other arguments were given).
if [ $# -eq 0 ]; then
    # `swift build -c release --static-swift-stdlib --product afget`, made by Scripts/afget as a
    # user's first run makes it; then Scripts/package.sh's package, installed, used and removed.
    Scripts/test-install.sh
    release="$(swift build -c release --static-swift-stdlib --show-bin-path)/afget"
    AFGET_BINARY="$release" swift test --skip-build --parallel --filter 'NginxSmokeTests|InterruptTests'
    # docs/fleet.md's recipes run for real (a one-node Slurm cluster, GNU parallel, the
    # Kubernetes Job's command), about 50 s, with the binary a fleet would be given: the release
    # build, made above, so nothing more is built.
    AFGET_BINARY="$release" Scripts/fleet-test.sh
fi
