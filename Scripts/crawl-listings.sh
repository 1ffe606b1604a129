#!/usr/bin/env bash
# Writes the autoindex listings the crawl's tests read (Tests/AFGetKitTests/Crawl/Listings/):
# one small tree served by nginx (autoindex on), apache2 (mod_autoindex, FancyIndexing),
# lighttpd (dir-listing), caddy (file_server browse) and python's http.server, each listing
# of /pub/data/ saved as the server sent it. Run again when a server's listing format is in question:
#   Scripts/crawl-listings.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/Tests/AFGetKitTests/Crawl/Listings"
work="$(mktemp -d)"; trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
www="$work/www"; mkdir -p "$www/pub/data/sub dir" "$www/pub/other"
echo a >"$www/pub/data/a.txt"; echo b >"$www/pub/data/b file.iso"; echo c >"$www/pub/data/é.txt"
echo d >"$www/pub/data/sub dir/d.txt"; chmod -R a+rX "$work"
port=18391

fetch() {  # NAME: the listing of /pub/data/, once the server answers
    for _ in $(seq 50); do
        if curl -sf "http://127.0.0.1:$port/pub/data/" -o "$out/$1"; then return; fi
        sleep 0.1
    done
    echo "crawl-listings: $1: no answer" >&2; exit 1
}

cat >"$work/nginx.conf" <<EOF
daemon off; master_process off; worker_processes 1; pid $work/nginx.pid; error_log $work/error.log;
events { worker_connections 16; }
http { access_log off; server { listen 127.0.0.1:$port; root $www; autoindex on; } }
EOF
nginx -p "$work" -c "$work/nginx.conf" -e "$work/error.log" & pid=$!
fetch nginx.html; kill $pid; wait $pid 2>/dev/null || true

cat >"$work/apache.conf" <<EOF
ServerRoot /usr/lib/apache2
LoadModule mpm_event_module modules/mod_mpm_event.so
LoadModule authz_core_module modules/mod_authz_core.so
LoadModule autoindex_module modules/mod_autoindex.so
ServerName localhost
Listen 127.0.0.1:$port
PidFile $work/apache.pid
DefaultRuntimeDir $work
ErrorLog $work/error.log
$([ "$(id -u)" -ne 0 ] || printf 'User www-data\nGroup www-data')
DocumentRoot $www
<Directory $www>
    Require all granted
    Options +Indexes
    IndexOptions FancyIndexing
</Directory>
EOF
apache2 -f "$work/apache.conf" -DFOREGROUND & pid=$!
fetch apache.html; kill $pid; wait $pid 2>/dev/null || true

cat >"$work/lighttpd.conf" <<EOF
server.document-root = "$www"
server.bind = "127.0.0.1"
server.port = $port
server.errorlog = "$work/error.log"
dir-listing.activate = "enable"
EOF
lighttpd -D -f "$work/lighttpd.conf" & pid=$!
fetch lighttpd.html; kill $pid; wait $pid 2>/dev/null || true

printf ':%s {\n\troot * %s\n\tfile_server browse\n}\n' "$port" "$www" >"$work/Caddyfile"
XDG_DATA_HOME="$work" XDG_CONFIG_HOME="$work" caddy run --config "$work/Caddyfile" --adapter caddyfile \
    2>"$work/caddy.log" & pid=$!
fetch caddy.html; kill $pid; wait $pid 2>/dev/null || true

(cd "$www" && exec python3 -m http.server --bind 127.0.0.1 "$port" 2>/dev/null) & pid=$!
fetch python.html; kill $pid; wait $pid 2>/dev/null || true
