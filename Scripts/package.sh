#!/usr/bin/env bash
# Builds a Debian package of afget: the release binary (the Swift runtime linked in), afget(1),
# the bash, zsh and fish completions and a copyright file, versioned as `afget --version` says
# and depending on the libcurl, OpenSSL and zlib runtime packages only:
#   Scripts/package.sh           # writes ./afget_VERSION_ARCH.deb and prints its path
#   Scripts/package.sh DIR       # into DIR
# Install it with `sudo apt install ./afget_VERSION_ARCH.deb`; Scripts/test-package.sh checks it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$(cd "${1:-.}" && pwd)"
source "$root/Scripts/packages.sh"
source "$root/Scripts/release-build.sh"
ensure_packages "${BUILD_PACKAGES[@]}"
build_release "$root"
binary="$root/.build/release/afget"
version="$("$binary" --version | cut -d' ' -f1)"
arch="$(dpkg --print-architecture)"

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
install -D -m 0755 "$binary" "$stage/usr/bin/afget"
install -d -m 0755 "$stage/usr/share/man/man1"
gzip -9n < "$root/man/man1/afget.1" > "$stage/usr/share/man/man1/afget.1.gz"
# Where Debian's shells look for the completions of packaged programs.
"$binary" --generate-completion-script bash > "$stage/completion.bash"
"$binary" --generate-completion-script zsh > "$stage/completion.zsh"
"$binary" --generate-completion-script fish > "$stage/completion.fish"
install -D -m 0644 "$stage/completion.bash" "$stage/usr/share/bash-completion/completions/afget"
install -D -m 0644 "$stage/completion.zsh" "$stage/usr/share/zsh/vendor-completions/_afget"
install -D -m 0644 "$stage/completion.fish" "$stage/usr/share/fish/vendor_completions.d/afget.fish"
rm "$stage"/completion.*
install -D -m 0644 "$root/Scripts/debian/copyright" "$stage/usr/share/doc/afget/copyright"
find "$stage" -type f -name '*.gz' -exec chmod 0644 {} +
find "$stage" -type d -exec chmod 0755 {} +

# The packages of the libraries the binary links against, found from the files themselves. The C
# and C++ runtimes (libc, libm, libstdc++, libgcc_s) are on every Debian system that has apt.
depends=()
for library in $(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    case "$library" in
        libc.so.*|libm.so.*|ld-linux*|libstdc++.so.*|libgcc_s.so.*) continue ;;
        libcurl.so.*|libcrypto.so.*|libssl.so.*|libz.so.*|libxml2.so.*) ;;
        *) echo "afget: the binary needs $library, which the package does not declare" >&2; exit 1 ;;
    esac
    path="$(ldd "$binary" | awk -v name="$library" '$1 == name { print $3 }')"
    # Asked by the file's own name: with merged /usr, dpkg knows it under /lib or /usr/lib.
    package="$(dpkg -S "*/$(basename "$(readlink -f "$path")")" | grep -m1 ":$arch: " | cut -d: -f1)"
    case "$library" in
        # afget uses nothing newer than the libcurl it is built against (7.88 on Debian 12).
        libcurl.so.*) depends+=("$package (>= $(pkg-config --modversion libcurl))") ;;
        *) depends+=("$package") ;;
    esac
done

install -d -m 0755 "$stage/DEBIAN"
cat > "$stage/DEBIAN/control" <<CONTROL
Package: afget
Version: $version
Architecture: $arch
Maintainer: ${DEBFULLNAME:-afget maintainers} <${DEBEMAIL:-maintainers@users.noreply.a-seed-8fb8ef77.example}>
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: $(IFS=,; echo "${depends[*]}" | sed 's/,/, /g')
Section: web
Priority: optional
Description: download files over HTTP and HTTPS, safe to interrupt and re-run
 A download and upload tool written in Swift over libcurl: live progress,
 Ctrl-C and the same command again to continue with nothing lost, lists of a
 million URLs, an API client (afget request), and exit codes and JSON reports
 made for scripts. The manual page is afget(1).
CONTROL
deb="$out/afget_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >&2
echo "$deb"
