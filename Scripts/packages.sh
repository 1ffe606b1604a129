# Sourced by the other scripts: installs Debian packages that are missing, and only those.
# Usage: ensure_packages PACKAGE...
# It says in one line on stderr what it installs; apt's and dpkg's own progress (a line for
# each download, unpack and set-up) goes to a log, shown only when the installation fails.

ensure_packages() {
    local missing=()
    local package
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local log
    log="$(mktemp "${TMPDIR:-/tmp}/afget-packages.XXXXXX.log")"
    echo "afget: installing ${missing[*]} (Debian packages, with apt-get)" >&2
    local sudo=()
    [ "$(id -u)" -ne 0 ] && sudo=(sudo)
    local status=0
    # -qq quiets apt, not dpkg, which apt runs: hence the log for both.
    { "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"; } \
        > "$log" 2>&1 < /dev/null || status=$?
    if [ "$status" -ne 0 ]; then
        cat "$log" >&2
        echo "afget: installing ${missing[*]} failed (exit $status); apt-get's log is above, and in $log" >&2
        return "$status"
    fi
    rm -f "$log"
}

# What building afget needs: libcurl (OpenSSL flavour) found through pkg-config, OpenSSL, zlib
# and libxml2 (Metalink).
BUILD_PACKAGES=(pkg-config libcurl4-openssl-dev libssl-dev zlib1g-dev libxml2-dev)
