# Sourced by the other scripts: installs Debian packages that are missing, and only those.
# Usage: ensure_packages PACKAGE...

ensure_packages() {
    local missing=()
    local package
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "afget: installing ${missing[*]}" >&2
    local sudo=()
    [ "$(id -u)" -ne 0 ] && sudo=(sudo)
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq >&2
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# What building afget needs: libcurl (OpenSSL flavour) found through pkg-config, OpenSSL, zlib
# and libxml2 (Metalink).
BUILD_PACKAGES=(pkg-config libcurl4-openssl-dev libssl-dev zlib1g-dev libxml2-dev)
