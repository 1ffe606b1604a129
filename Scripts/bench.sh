#!/usr/bin/env bash
# Side-by-side benchmark against curl, wget2, aria2c (and dd as the limit) on loopback nginx.
#   Scripts/bench.sh            # 1 GiB, 5 runs per tool
#   SIZE_MIB=256 RUNS=3 Scripts/bench.sh
# Prints one table: median wall time, CPU time (user+sys) and peak memory per tool, and each
# tool's ratio to afget. Timing lives here, never in tests.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/Scripts/packages.sh"
ensure_packages "${BUILD_PACKAGES[@]}" nginx-light hyperfine curl wget2 aria2 time python3

size_mib="${SIZE_MIB:-1024}"
runs="${RUNS:-5}"
work="$(mktemp -d "${BENCH_DIR:-$root/.build}/bench.XXXXXX")"
trap 'kill "$(cat "$work/nginx.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$work"' EXIT

swift build -c release --package-path "$root" --product afget >&2
afget="$root/.build/release/afget"

# nginx on a free port, serving one file of random bytes.
mkdir -p "$work/www" "$work/tmp" "$work/out"
chmod 755 "$work" "$work/www"  # nginx workers run as an unprivileged user
head -c "$((size_mib << 20))" /dev/urandom > "$work/www/file.bin"
sync  # the source is on disk before any timing starts
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
cat > "$work/nginx.conf" <<CONF
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    client_body_temp_path $work/tmp;
    proxy_temp_path $work/tmp; fastcgi_temp_path $work/tmp; uwsgi_temp_path $work/tmp; scgi_temp_path $work/tmp;
    server { listen 127.0.0.1:$port; root $work/www; }
}
CONF
nginx -p "$work" -c "$work/nginx.conf" -e "$work/error.log"
for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$port/file.bin" -r 0-0 && break; sleep 0.1; done

url="http://127.0.0.1:$port/file.bin"
out="$work/out/file.bin"
declare -A commands=(
    [afget]="$afget -q -o $out $url"
    [curl]="curl -s -o $out $url"
    [wget2]="wget2 -q -O $out $url"
    [aria2c]="aria2c -q --allow-overwrite=true -d $work/out -o file.bin $url"
    [dd]="dd if=$work/www/file.bin of=$out bs=1M status=none"
    ["dd+fsync"]="dd if=$work/www/file.bin of=$out bs=1M conv=fsync status=none"
)
order=(afget curl wget2 aria2c dd "dd+fsync")

results="$work/results.txt"
: > "$results"
for tool in "${order[@]}"; do
    command="${commands[$tool]}"
    hyperfine --style none --runs "$runs" --warmup 1 --prepare "rm -f $out $out.afpart; sync" \
        --export-json "$work/$tool.json" "$command" > /dev/null
    rm -f "$out" "$out.afpart"
    peak_kib="$(/usr/bin/time -f %M sh -c "$command" 2>&1 >/dev/null | tail -n 1)"
    echo "$tool $work/$tool.json $peak_kib" >> "$results"
done

echo "afget $("$afget" --version), $(curl --version | head -n 1 | cut -d' ' -f1-2), $(wget2 --version | head -n 1), $(aria2c --version | head -n 1)"
echo "case: one ${size_mib} MiB file from loopback nginx to disk, median of $runs runs"
python3 - "$results" <<'PY'
import json, sys
rows = []
for line in open(sys.argv[1]):
    tool, path, peak = line.split()
    result = json.load(open(path))["results"][0]
    rows.append((tool, result["median"], result["user"] + result["system"], int(peak) / 1024))
afget = rows[0][1]
print(f"{'tool':<10}{'wall s':>9}{'cpu s':>9}{'peak MiB':>10}{'afget/tool':>12}")
for tool, wall, cpu, peak in rows:
    print(f"{tool:<10}{wall:>9.3f}{cpu:>9.3f}{peak:>10.1f}{afget / wall:>12.2f}")
PY
