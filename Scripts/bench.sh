#!/usr/bin/env bash
# Side-by-side benchmark against curl, wget2 and aria2c (and dd, the limit) on loopback nginx.
#   Scripts/bench.sh                     # every case, 5 runs per tool
#   CASES=small RUNS=3 Scripts/bench.sh  # one case: large | small
#   SIZE_MIB=256 Scripts/bench.sh        # a smaller large file
# For each case it prints one table: median wall time, CPU time (user+sys) and peak memory per
# tool, and afget's time divided by each tool's. Timing lives here, never in tests.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/Scripts/packages.sh"
ensure_packages "${BUILD_PACKAGES[@]}" nginx-light hyperfine curl wget2 aria2 time python3

size_mib="${SIZE_MIB:-1024}"
runs="${RUNS:-5}"
cases="${CASES:-large small}"
work="$(mktemp -d "${BENCH_DIR:-$root/.build}/bench.XXXXXX")"
trap 'kill "$(cat "$work/nginx.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$work"' EXIT

swift build -c release --package-path "$root" --product afget >&2
afget="$root/.build/release/afget"

# nginx on a free port, serving the files of every case.
mkdir -p "$work/www/small" "$work/tmp" "$work/out"
chmod 755 "$work" "$work/www" "$work/www/small"  # nginx workers run as an unprivileged user
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
cat > "$work/nginx.conf" <<CONF
worker_processes 2;
pid $work/nginx.pid;
error_log $work/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    keepalive_requests 100000;
    client_body_temp_path $work/tmp;
    proxy_temp_path $work/tmp; fastcgi_temp_path $work/tmp; uwsgi_temp_path $work/tmp; scgi_temp_path $work/tmp;
    server { listen 127.0.0.1:$port; root $work/www; }
}
CONF
nginx -p "$work" -c "$work/nginx.conf" -e "$work/error.log"
base="http://127.0.0.1:$port"
out="$work/out"

# bench NAME DESCRIPTION PREPARE TOOL=COMMAND...: times each command and prints the table.
bench() {
    local name="$1" description="$2" prepare="$3"
    shift 3
    local results="$work/$name.results"
    : > "$results"
    for entry in "$@"; do
        local tool="${entry%%=*}" command="${entry#*=}"
        hyperfine --style none --runs "$runs" --warmup 1 --prepare "$prepare" \
            --export-json "$work/$name-$tool.json" "$command" > /dev/null
        sh -c "$prepare"
        local peak_kib
        peak_kib="$(/usr/bin/time -f %M sh -c "$command" 2>&1 >/dev/null | tail -n 1)"
        echo "$tool $work/$name-$tool.json $peak_kib" >> "$results"
    done
    echo
    echo "case: $description, median of $runs runs"
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
}

echo "afget $("$afget" --version), $(curl --version | head -n 1 | cut -d' ' -f1-2), $(wget2 --version | head -n 1 | cut -d' ' -f1-3), $(aria2c --version | head -n 1)"

for case in $cases; do
    case "$case" in
    large)
        head -c "$((size_mib << 20))" /dev/urandom > "$work/www/file.bin"
        sync  # the source is on disk before any timing starts
        bench large "one ${size_mib} MiB file from loopback nginx to disk" "rm -f $out/file.bin $out/file.bin.af*; sync" \
            "afget=$afget -q -o $out/file.bin $base/file.bin" \
            "curl=curl -s -o $out/file.bin $base/file.bin" \
            "wget2=wget2 -q -O $out/file.bin $base/file.bin" \
            "aria2c=aria2c -q --allow-overwrite=true -d $out -o file.bin $base/file.bin" \
            "dd=dd if=$work/www/file.bin of=$out/file.bin bs=1M status=none" \
            "dd+fsync=dd if=$work/www/file.bin of=$out/file.bin bs=1M conv=fsync status=none"
        rm -f "$work/www/file.bin"
        ;;
    small)
        for i in $(seq 1000); do head -c 16384 /dev/urandom > "$work/www/small/f$i.bin"; done
        chmod 644 "$work/www/small/"*
        seq 1000 | sed "s|.*|$base/small/f&.bin|" > "$work/list.txt"
        sync
        # Earlier outputs are moved aside, not deleted: on ext4 without a journal, inodes freed
        # in the last minute are skipped when allocating, which would slow whichever tool runs next.
        mkdir -p "$work/aside"
        bench small "1000 files of 16 KiB, 8 at once" "mv $out $work/aside/\$(date +%s%N) 2>/dev/null; mkdir -p $out && sync" \
            "afget=$afget -q -j 8 -d $out -i $work/list.txt" \
            "curl=cd $out && curl -s -Z --parallel-max 8 --remote-name-all \$(cat $work/list.txt)" \
            "wget2=wget2 -q --max-threads=8 -P $out -i $work/list.txt" \
            "aria2c=aria2c -q -j 8 -d $out -i $work/list.txt"
        ;;
    *)
        echo "unknown case $case (large, small)" >&2
        exit 2
        ;;
    esac
done
