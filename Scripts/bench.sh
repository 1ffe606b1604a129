#!/usr/bin/env bash
# Side-by-side benchmark against curl, wget2, aria2c and axel (and dd, the limit) on loopback
# nginx, every case of DESIGN.md §7:
#   large   one file (SIZE_MIB, default 1024) to disk: afget, curl, wget2, aria2c, axel, dd, dd+fsync
#   small   1000 files of 16 KiB, 8 at once: afget, curl -Z, wget2, aria2c; and as limits, not
#           peers: curl+sync (curl -Z then syncfs, making the files durable once at the end), the
#           libcurl floor (below) in its plain, durable and atomic modes, and h2load (the same
#           requests over as many connections, writing nothing: the server and loopback alone)
#   small-1k   10 000 files of 1 KiB, 16 at once, the same tools: the cost per item, with
#              almost no body to carry
#   small-tls  small's files over HTTPS from the same nginx (HTTP/2 offered), 8 at once, the
#              same tools given the throwaway certificate below; no floor (curlfloor sets no CA
#              and no way to skip verification, so it cannot fetch from this server)
#   split   256 MiB from a location limited to 40 MB/s per connection, 8 connections:
#           afget -s 8, aria2c -x8 -s8 -k1M, axel -n8; twice, as split-h1 over HTTP/1.1 and as
#           split-h2 over HTTPS from the same nginx offering HTTP/2 (every tool's split requests
#           speak HTTP/1.1 over TLS, a connection each), with a throwaway certificate for 127.0.0.1
#   mirrors    split's file from three locations of the same nginx (three "mirrors", each limited
#              per connection as split's), 6 connections over them: afget -s 6 --mirror --mirror,
#              aria2c -x6 -s6 and axel -n6 given the three URLs (as split-mirrors, with the wire
#              columns and its own bound, 6 connections at the limit)
#   list-100k  100 000 files of 1 KiB, 16 at once, one run each: afget, curl -Z (-K, the list
#              is too long for its command line), wget2, aria2c, the floor's three file modes
#   rerun-100k the same list over a directory of the complete files: afget, wget2 -nc, aria2c
#              --conditional-get, items/s
#   list-404   100 000 and 1 000 000 URLs (LIST_404_COUNTS) nginx answers 404 (no files made),
#              16 at once, one run each: afget, curl -Z, wget2, the floor's discard mode, h2load;
#              and afget's peak memory over them
#   crawl   a generated site of 10 000 pages and 1 000 files fetched recursively, 16 at once:
#           afget -r -j 16 and wget2 -r --max-threads=16 (no floor: a crawl is no list)
#   memory  peak memory of afget, curl and aria2c for a 1 GiB and a 4 GiB file (one run each)
#   s3      moto's S3 server (pip's moto, as Scripts/test.sh installs it) with S3_COUNT objects of
#           1 MiB under a prefix (default 1000) and one object of S3_LARGE_MIB (default 1024):
#           s3-prefix, afget -j 16 on the prefix against aws s3 cp --recursive (awscli from pip,
#           max_concurrent_requests 16) and rclone copy --transfers 16 (Debian's rclone); s3-large,
#           afget (one connection, its default) against aws s3 cp and rclone copyto
#           --multi-thread-streams 8. The three sign with the same throwaway key (moto takes any).
#           rclone+sync (rclone, then sync(1)) is s3-prefix's reference, afget/limit: afget's files
#           are durable when it exits, rclone's are not. moto, a Python server, sets the pace: it
#           copies the whole object for every ranged GET, so afget -s N, whose ranges are at most
#           16 MiB, would pay that copy per range there (not on S3), as aws s3 cp's 8 MiB parts do.
# The libcurl floor (DESIGN.md §7): curlfloor, a C loop over one libcurl multi handle (easy handles
# reused, each body written with one write), built here from ../shared/bench/curlfloor.c
# (CURLFLOOR_SRC) and never kept in the tree. Its modes: plain (open, write, close, as curl -Z),
# durable (afget's file contract: O_TMPFILE, linkat, syncfs every 256 files and at the end),
# atomic (durable without the syncfs) and discard (bodies thrown away). It is libcurl and the
# kernel with nothing of afget's, so afget's distance from it is afget's own work. Without the
# source, one line on stderr says so and the floor's rows and columns are left out.
# Usage: Scripts/bench.sh | CASES="large split" RUNS=3 Scripts/bench.sh | SIZE_MIB=256 Scripts/bench.sh
#        BASELINE=/path/to/afget Scripts/bench.sh | LIST_404_COUNTS=100000 CASES=list-404 Scripts/bench.sh
# Prints one table: median wall time, CPU time (user+sys) and peak memory per tool and case,
# afget's wall time divided by the best peer's (afget/best), and by the limit's where a case has
# one (afget/limit: dd+fsync for large, curl+sync for the small cases, the bound nginx's rate
# sets for split; dd and curl+sync are not peers), and afget's wall and CPU time by the floor's
# (afget/floor and cpu/floor: curlfloor durable for the cases that make files, discard for the
# 404 lists), with each per-item case's CPU µs per item for afget and the floor under the table.
# h2load stays as a row, not a ratio: the server and loopback with no client library, which
# floor-discard's time less h2load's puts a size on. Timing lives here, never in tests. The split
# cases add, per tool, the bytes nginx sent over the counted runs' files (wire: bytes asked for
# twice, or sent and never read, cost the server and the network though the clock may not show
# them) and the connections a run used (conns: whether -s 8 opened 8).
# BASELINE: another afget binary (say, built from the commit before a refactor with the same
# "swift build -c release --static-swift-stdlib --product afget", so that only the code differs),
# run as tool "baseline" with exactly afget's arguments in every case afget runs in, taking turns
# with the others; the table then adds afget/base, afget's wall time over the baseline's. Timing
# both in one interleaved run, rather than comparing two runs' tables, keeps the machine's load
# from passing for a change. The baseline is not a peer.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/Scripts/packages.sh"
ensure_packages "${BUILD_PACKAGES[@]}" nginx-light curl wget2 aria2 axel time python3 nghttp2-client gcc
if [[ " ${CASES:-s3} " == *" s3 "* ]]; then
    ensure_packages rclone
    python3 -c 'import moto.server, boto3' 2>/dev/null || python3 -m pip install -q 'moto[server]' boto3 >&2
    command -v aws >/dev/null || python3 -m pip install -q awscli >&2
fi

size_mib="${SIZE_MIB:-1024}"
runs="${RUNS:-5}"
# The lengths of list-404's lists: the million takes minutes per tool, so a short check can leave
# it out.
list_404_counts="${LIST_404_COUNTS:-100000 1000000}"
cases="${CASES:-large small small-1k small-tls list-100k rerun-100k list-404 split mirrors crawl memory s3}"
# The split cases' file, nginx's limit per connection (its "m" is MiB) and the connections each
# tool opens: the bound is split_mib / (split_conns * split_rate_mib) seconds.
split_mib=256
split_rate_mib=40
split_conns=8
mirror_conns=6
mkdir -p "${BENCH_DIR:-$root/.build}"
work="$(mktemp -d "${BENCH_DIR:-$root/.build}/bench.XXXXXX")"
trap 'kill "$(cat "$work/nginx.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$work"' EXIT

swift build -c release --static-swift-stdlib --package-path "$root" --product afget >&2
afget="$root/.build/release/afget"
baseline=""
if [ -n "${BASELINE:-}" ]; then
    # Absolute, since some commands run from another directory.
    baseline="$(realpath -es "$BASELINE")"
    [ -x "$baseline" ] || { echo "BASELINE $BASELINE is not an executable" >&2; exit 2; }
fi

# nginx on two free ports, plain and TLS, serving the files of every case; /limited/ at 40 MB/s
# per connection (per stream over HTTP/2), logged for the split cases' wire and conns columns.
mkdir -p "$work/www/small" "$work/tmp" "$work/out" "$work/aside"
chmod 755 "$work" "$work/www" "$work/www/small"  # nginx workers run as an unprivileged user
# Both sockets open at once, so that the two ports differ.
read -r port tls_port <<<"$(python3 -c 'import socket; s=[socket.socket() for _ in "ab"]
for x in s: x.bind(("127.0.0.1",0))
print(*(x.getsockname()[1] for x in s))')"
# Made afresh each time rather than kept in the tree: nothing trusts it but this run's clients.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
cat > "$work/nginx.conf" <<CONF
worker_processes 2;
pid $work/nginx.pid;
error_log $work/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    # One line per request: the URL's ?by= (BENCH_RUN, see wire_count), nginx's serial number of
    # the connection, the bytes sent for the request, headers included.
    log_format wire '\$arg_by \$connection \$bytes_sent';
    sendfile on;
    keepalive_requests 100000;
    client_body_temp_path $work/tmp;
    proxy_temp_path $work/tmp; fastcgi_temp_path $work/tmp; uwsgi_temp_path $work/tmp; scgi_temp_path $work/tmp;
    server {
        listen 127.0.0.1:$port;
        listen 127.0.0.1:$tls_port ssl http2;  # nginx 1.22's spelling; 1.25 moved it to "http2 on"
        ssl_certificate $work/cert.pem;
        ssl_certificate_key $work/key.pem;
        root $work/www;
        # nginx serves the file whatever the query string, so a tag in it changes nothing else.
        location /limited/ { alias $work/www/; limit_rate ${split_rate_mib}m; access_log $work/access.log wire; }
        location /mirror/ { alias $work/www/; limit_rate ${split_rate_mib}m; access_log $work/access.log wire; }
        location /mirror-b/ { alias $work/www/; limit_rate ${split_rate_mib}m; access_log $work/access.log wire; }
        # For wire_count: the connections still open, to know when every request is logged.
        location = /status { stub_status; }
    }
}
CONF
nginx -p "$work" -c "$work/nginx.conf" -e "$work/error.log"

# The libcurl floor, built afresh from the shared source (it is not the project's code, so no
# copy of it lives in the tree). A missing source leaves the floor out rather than ending the run.
curlfloor_src="${CURLFLOOR_SRC:-$root/../shared/bench/curlfloor.c}"
curlfloor=""
if [ -f "$curlfloor_src" ]; then
    gcc -O2 -o "$work/curlfloor" "$curlfloor_src" -lcurl
    curlfloor="$work/curlfloor"
else
    echo "bench.sh: no curlfloor source at $curlfloor_src (set CURLFLOOR_SRC): no floor columns" >&2
fi
base="http://127.0.0.1:$port"
tls_base="https://127.0.0.1:$tls_port"
out="$work/out"
results="$work/results"
wire="$work/wire"
# "case items" per per-item case, for CPU µs per item; the cases the floor cannot run, for n/a.
items="$work/items"
nofloor="$work/nofloor"
: > "$results"
: > "$wire"
: > "$items"
: > "$nofloor"

# with_baseline TOOL=COMMAND...: sets tools to the entries, with BASELINE each afget entry
# followed by "baseline" running the same arguments. Derived here rather than written in every
# case, so the two can never be given different arguments. A case using an option the baseline
# may predate sets no_baseline for its bench call (the baseline would refuse it, ending the run).
with_baseline() {
    tools=()
    local entry
    for entry in "$@"; do
        tools+=("$entry")
        if [ -n "$baseline" ] && [ -z "${no_baseline:-}" ] && [[ "$entry" == "afget=$afget "* ]]; then
            tools+=("baseline=$baseline ${entry#"afget=$afget "}")
        fi
    done
}

# bench CASE PREPARE TOOL=COMMAND...: times the commands in turn, a warm-up round then $runs
# rounds (see Scripts/interleave.py); appends "case tool wall cpu peak-KiB" rows.
bench() {
    with_baseline "${@:3}"
    python3 "$root/Scripts/interleave.py" "$results" "$1" "$runs" 1 "$2" "${tools[@]}"
}

# wire_count CASE SIZE: after bench CASE, appends "case tool wire conns" rows to $wire from
# nginx's access log: the bytes sent for the tool's counted runs over runs * SIZE, and the median
# of the distinct connections a run used. The tools tag their URLs with ?by=$BENCH_RUN
# (CASE.TOOL.ROUND, see Scripts/interleave.py), so the warm-up round, tagged "warmup", is left
# out, and a baseline, given afget's very arguments, still logs as itself.
wire_count() {
    # nginx logs a request when it ends it, which for a client gone can be a moment after the
    # client exited: wait until the only connection left is the status request's own.
    local i
    for i in $(seq 100); do
        [ "$(curl -s "$base/status" | awk '/^Active connections:/ { print $3 }')" = 1 ] && break
        sleep 0.1
    done
    python3 - "$work/access.log" "$1" "$2" "$runs" >> "$wire" <<'PY'
import statistics, sys
log, case, size, runs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
sent, conns = {}, {}
for line in open(log):
    tag, connection, bytes_sent = line.split()
    # Case names hold no dots, tool names neither: split from the right.
    parts = tag.rsplit(".", 2)
    if len(parts) != 3 or parts[0] != case or parts[2] == "warmup":
        continue
    _, tool, run = parts
    sent[tool] = sent.get(tool, 0) + int(bytes_sent)
    conns.setdefault(tool, {}).setdefault(run, set()).add(connection)
for tool in sent:
    per_run = statistics.median(len(c) for c in conns[tool].values())
    print(case, tool, f"{sent[tool] / runs / size:.4f}", per_run)
PY
}

# floor_tools MODES JOBS LIST TAIL: sets floor to a "floor-MODE=COMMAND" entry per mode (none
# without curlfloor), fetching LIST's URLs JOBS at once into $out. curlfloor exits 0 whatever its
# transfers did, so each command then checks that its closing line ends with TAIL ("N items, F
# failed"): a run that fetched nothing must not pass for a fast one. The check uses the shell's
# built-ins only, so no process of its own adds to the floor's CPU.
floor_tools() {
    floor=()
    [ -n "$curlfloor" ] || return 0
    local mode
    for mode in $1; do
        floor+=("floor-$mode=$curlfloor $mode $2 $out < $3 2> $work/floor.err && read -r line < $work/floor.err && case \"\$line\" in *\": $4\") ;; *) echo \"\$line\" >&2; exit 1 ;; esac")
    done
}

# peak CASE PREPARE TOOL=COMMAND...: one run each, for peak memory.
peak() {
    with_baseline "${@:3}"
    python3 "$root/Scripts/interleave.py" "$results" "$1" 1 0 "$2" "${tools[@]}"
}

echo "afget $("$afget" --version | sed -E 's/^([^ ]+) \(([^ ]+).*/\1 on \2/'), $(curl --version | head -n 1 | cut -d' ' -f1-2)," \
    "$(wget2 --version | head -n 1 | cut -d' ' -f1-3), $(aria2c --version | head -n 1), $(axel --version | head -n 1)"
if [ -n "$baseline" ]; then
    echo "baseline $baseline: afget $("$baseline" --version | sed -E 's/^([^ ]+) \(([^ ]+).*/\1 on \2/')"
fi

for case in $cases; do
    case "$case" in
    large)
        head -c "$((size_mib << 20))" /dev/urandom > "$work/www/file.bin"
        sync  # the source is on disk before any timing starts
        bench "large-${size_mib}M" "rm -f $out/file.bin* $out/file.bin.af*; sync" \
            "afget=$afget -q -o $out/file.bin $base/file.bin" \
            "curl=curl -s -o $out/file.bin $base/file.bin" \
            "wget2=wget2 -q -O $out/file.bin $base/file.bin" \
            "aria2c=aria2c -q --allow-overwrite=true -d $out -o file.bin $base/file.bin" \
            "axel=axel -q -n 1 -o $out/file.bin $base/file.bin" \
            "dd=dd if=$work/www/file.bin of=$out/file.bin bs=1M status=none" \
            "dd+fsync=dd if=$work/www/file.bin of=$out/file.bin bs=1M conv=fsync status=none"
        rm -f "$work/www/file.bin" "$out"/file.bin*
        ;;
    small | small-1k | small-tls)
        # Files, bytes each, transfers at once, and the server: small-tls fetches small's files.
        if [ "$case" = small-1k ]; then
            count=10000 bytes=1024 jobs=16
        else
            count=1000 bytes=16384 jobs=8
        fi
        files="$work/www/small/$count-$bytes"
        if [ ! -d "$files" ]; then
            mkdir -p "$files"
            # One process rather than a head per file: 10 000 of those took 11 s.
            python3 -c 'import os, sys
for i in range(1, int(sys.argv[2]) + 1):
    with open(f"{sys.argv[1]}/f{i}.bin", "wb") as f: f.write(os.urandom(int(sys.argv[3])))' "$files" "$count" "$bytes"
            chmod 755 "$files" && chmod 644 "$files"/*
        fi
        # h2load (which does not check certificates) speaks what the others do: HTTP/1.1 in
        # the clear, HTTP/2 over TLS.
        if [ "$case" = small-tls ]; then
            url="$tls_base" afget_tls="--cacert $work/cert.pem" curl_tls="--cacert $work/cert.pem" \
                wget2_tls="--ca-certificate=$work/cert.pem" aria2c_tls="--ca-certificate=$work/cert.pem" h2load_proto=""
        else
            url="$base" afget_tls="" curl_tls="" wget2_tls="" aria2c_tls="" h2load_proto="--h1"
        fi
        list="$work/$case.txt"
        seq "$count" | sed "s|.*|$url/small/$count-$bytes/f&.bin|" > "$list"
        echo "$case $count" >> "$items"
        if [ "$case" = small-tls ]; then
            floor=()
            [ -z "$curlfloor" ] || echo "$case" >> "$nofloor"
        else
            floor_tools "plain durable atomic" "$jobs" "$list" "$count items, 0 failed"
        fi
        sync
        # Earlier outputs are moved aside, not deleted, and stay there until the script exits:
        # on ext4 without a journal, inodes freed in the last minutes (up to six) are checked and
        # skipped one by one when allocating, which would slow whichever tool (or small case)
        # runs next. For the same reason, wait that long after deleting many files (a previous
        # run's clean-up too) before starting this script.
        bench "$case" "mv $out $work/aside/\$(date +%s%N) 2>/dev/null; mkdir -p $out && sync" \
            "afget=$afget -q $afget_tls -j $jobs -d $out -i $list" \
            "curl=cd $out && curl -s $curl_tls -Z --parallel-max $jobs --remote-name-all \$(cat $list)" \
            "wget2=wget2 -q $wget2_tls --max-threads=$jobs -P $out -i $list" \
            "aria2c=aria2c -q $aria2c_tls -j $jobs -d $out -i $list" \
            "curl+sync=cd $out && curl -s $curl_tls -Z --parallel-max $jobs --remote-name-all \$(cat $list) && sync -f ." \
            "${floor[@]}" \
            "h2load=h2load $h2load_proto -n $count -c $jobs -m 1 -i $list >/dev/null"
        mv "$out" "$work/aside/$(date +%s%N)" && mkdir -p "$out"
        ;;
    list-100k | rerun-100k)
        # A long list: 100 000 files of 1 KiB, 16 at once, one run each (aria2c alone takes
        # over a minute). rerun-100k: the same list over a directory where every file is already
        # complete, bounded by a look at each file rather than by the network (items/s in the
        # notes; curl has no such mode). wget2 -nc was seen to hang there, idle, with every file
        # in place: it is given 120 s.
        count=100000
        files="$work/www/small/$count-1024"
        if [ ! -d "$files" ]; then
            mkdir -p "$files"
            python3 -c 'import os, sys
for i in range(1, int(sys.argv[2]) + 1):
    with open(f"{sys.argv[1]}/f{i}.bin", "wb") as f: f.write(os.urandom(1024))' "$files" "$count"
            # find rather than a glob: 100 000 names do not fit on a command line.
            chmod 755 "$files" && find "$files" -type f -exec chmod 644 {} +
        fi
        list="$work/list-100k.txt"
        seq "$count" | sed "s|.*|$base/small/$count-1024/f&.bin|" > "$list"
        # curl takes a list this long from a config file: it would not fit on a command line.
        sed 's|.*|url = "&"|' "$list" > "$list.curl"
        sync
        if [ "$case" = list-100k ]; then
            echo "list-100k $count" >> "$items"
            floor_tools "plain durable atomic" 16 "$list" "$count items, 0 failed"
            python3 "$root/Scripts/interleave.py" "$results" list-100k 1 0 \
                "mv $out $work/aside/\$(date +%s%N) 2>/dev/null; mkdir -p $out && sync" \
                "afget=$afget -q -j 16 -d $out -i $list" \
                "curl=cd $out && curl -s -Z --parallel-max 16 --remote-name-all -K $list.curl" \
                "wget2=wget2 -q --max-threads=16 -P $out -i $list" \
                "aria2c=aria2c -q -j 16 -d $out -i $list" \
                "${floor[@]}"
        else
            mv "$out" "$work/aside/$(date +%s%N)" && mkdir -p "$out" && cp -r "$files"/. "$out"/ && sync
            python3 "$root/Scripts/interleave.py" "$results" rerun-100k 1 0 "true" \
                "afget=$afget -q -j 16 -d $out -i $list" \
                "wget2=timeout 120 wget2 -q -nc --max-threads=16 -P $out -i $list || true" \
                "aria2c=aria2c -q -j 16 --conditional-get=true --auto-file-renaming=false -d $out -i $list || true"
        fi
        mv "$out" "$work/aside/$(date +%s%N)" && mkdir -p "$out"
        ;;
    list-404)
        # The cost of an item with nothing to write, and peak memory over a list's length:
        # 100 000 and 1 000 000 items nginx answers 404, so that no file is made (a million
        # files of 1 KiB would be 4 GiB), 16 at once, one run each. Every tool exits non-zero
        # for a 404, which is expected here.
        for count in $list_404_counts; do
            list="$work/list-404-$count.txt"
            seq "$count" | sed "s|.*|$base/missing/f&.bin|" > "$list"
            sed 's|.*|url = "&"|' "$list" > "$list.curl"
            label="list-404-$((count / 1000))k"
            echo "$label $count" >> "$items"
            # Every item is a 404, so the floor's closing line must count each as failed.
            floor_tools discard 16 "$list" "$count items, $count failed"
            python3 "$root/Scripts/interleave.py" "$results" "$label" 1 0 "true" \
                "afget=$afget -q -j 16 -d $out -i $list 2>/dev/null; [ \$? = 8 ]" \
                "curl=cd $out && curl -s -Z --parallel-max 16 --remote-name-all -K $list.curl; true" \
                "wget2=wget2 -q --max-threads=16 -P $out -i $list; true" \
                "${floor[@]}" \
                "h2load=h2load --h1 -n $count -c 16 -m 1 -i $list >/dev/null"
        done
        ;;
    split)
        head -c $((split_mib << 20)) /dev/urandom > "$work/www/split.bin"
        sync
        for proto in h1 h2; do
            if [ "$proto" = h1 ]; then
                url="$base/limited/split.bin" afget_tls="" aria2c_tls="" axel_tls=""
            else
                # axel cannot be given a CA, so it skips verification instead.
                url="$tls_base/limited/split.bin" afget_tls="--cacert $work/cert.pem" \
                    aria2c_tls="--ca-certificate=$work/cert.pem" axel_tls="-k"
            fi
            # Quoted for sh, where "?" would be a pattern; BENCH_RUN expands there, per run.
            src="\"$url?by=\$BENCH_RUN\""
            bench "split-$proto" "rm -f $out/split.bin*; sync" \
                "afget=$afget -q $afget_tls -s $split_conns -o $out/split.bin $src" \
                "aria2c=aria2c -q $aria2c_tls -x$split_conns -s$split_conns -k1M --allow-overwrite=true -d $out -o split.bin $src" \
                "axel=axel -q $axel_tls -n $split_conns -o $out/split.bin $src"
            wire_count "split-$proto" $((split_mib << 20))
        done
        rm -f "$work/www/split.bin" "$out"/split.bin*
        ;;
    mirrors)
        head -c $((split_mib << 20)) /dev/urandom > "$work/www/split.bin"
        sync
        urls=()
        for location in limited mirror mirror-b; do urls+=("\"$base/$location/split.bin?by=\$BENCH_RUN\""); done
        # --mirror is newer than the baselines compared so far.
        no_baseline=1 bench "split-mirrors" "rm -f $out/split.bin*; sync" \
            "afget=$afget -q -s $mirror_conns --mirror ${urls[1]} --mirror ${urls[2]} -o $out/split.bin ${urls[0]}" \
            "aria2c=aria2c -q -x$mirror_conns -s$mirror_conns -k1M --allow-overwrite=true -d $out -o split.bin ${urls[*]}" \
            "axel=axel -q -n $mirror_conns -o $out/split.bin ${urls[*]}"
        wire_count "split-mirrors" $((split_mib << 20))
        rm -f "$work/www/split.bin" "$out"/split.bin*
        ;;
    crawl)
        # A generated site of 10 000 pages of about 1 KiB in 100 folders, each linking to two
        # pages below it (a binary tree, so every page is reached, at most 14 links down) and
        # two more picked by a fixed formula (cycles and links across folders), every tenth to
        # a 16 KiB file: 11 001 items with the start page, fetched recursively 16 at once by
        # afget and wget2 (-l inf; both ask for robots.txt, which nginx has none of). Each
        # command then counts the files it made, so a crawl that stopped early cannot pass for
        # a fast one. No floor: curlfloor fetches a list, and a crawl's URLs come from its pages.
        pages=10000 crawl_files=1000
        site="$work/www/crawl"
        if [ ! -d "$site" ]; then
            python3 - "$site" "$pages" <<'PY'
import os, sys
site, pages = sys.argv[1], int(sys.argv[2])
def href(n):
    return f"/crawl/p{n // 100}/{n}.html"
os.makedirs(f"{site}/files")
for folder in range(pages // 100):
    os.makedirs(f"{site}/p{folder}")
for n in range(pages):
    links = [m for m in (2 * n + 1, 2 * n + 2, (n * 7919 + 13) % pages, (n * 104729 + 7) % pages) if m < pages]
    body = "".join(f'<li><a href="{href(m)}">page {m}</a></li>\n' for m in links)
    if n % 10 == 0:
        body += f'<li><a href="/crawl/files/f{n // 10}.bin">file {n // 10}</a></li>\n'
        with open(f"{site}/files/f{n // 10}.bin", "wb") as f:
            f.write(os.urandom(16384))
    with open(f"{site}/p{n // 100}/{n}.html", "w") as f:
        f.write(f"<!DOCTYPE html>\n<html><head><title>page {n}</title></head><body>\n<h1>Page {n}</h1>\n"
                f"<p>{'Some text of the page. ' * 30}</p>\n<ul>\n{body}</ul>\n</body></html>\n")
with open(f"{site}/index.html", "w") as f:
    f.write(f'<!DOCTYPE html>\n<html><body><a href="{href(0)}">start</a></body></html>\n')
PY
            find "$site" -type d -exec chmod 755 {} + && find "$site" -type f -exec chmod 644 {} +
        fi
        expected=$((pages + crawl_files + 1))
        echo "crawl $expected" >> "$items"
        [ -z "$curlfloor" ] || echo crawl >> "$nofloor"
        sync
        counted="[ \$(find $out -type f | wc -l) -eq $expected ]"
        bench crawl "mv $out $work/aside/\$(date +%s%N) 2>/dev/null; mkdir -p $out && sync" \
            "afget=$afget -q -r -l inf -j 16 -d $out $base/crawl/index.html && $counted" \
            "wget2=wget2 -q -r -l inf --max-threads=16 -P $out $base/crawl/index.html && $counted"
        mv "$out" "$work/aside/$(date +%s%N)" && mkdir -p "$out"
        ;;
    memory)
        for gib in 1 4; do
            head -c $((gib << 30)) /dev/zero > "$work/www/mem.bin"
            sync
            peak "memory-${gib}G" "rm -f $out/mem.bin*; sync" \
                "afget=$afget -q -o $out/mem.bin $base/mem.bin" \
                "curl=curl -s -o $out/mem.bin $base/mem.bin" \
                "aria2c=aria2c -q --allow-overwrite=true -d $out -o mem.bin $base/mem.bin"
            rm -f "$work/www/mem.bin" "$out"/mem.bin*
        done
        ;;
    s3)
        s3_count="${S3_COUNT:-1000}"
        s3_large_mib="${S3_LARGE_MIB:-1024}"
        s3_port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
        python3 -m moto.server -p "$s3_port" > "$work/moto.log" 2>&1 &
        moto_pid=$!
        for i in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$s3_port/" && break; sleep 0.1; done
        s3_endpoint="http://127.0.0.1:$s3_port"
        # A CA bundle of the machine's (AWS_CA_BUNDLE) means nothing to plain HTTP on loopback, and
        # rclone's SDK refuses to start with one on its custom transport.
        unset AWS_CA_BUNDLE
        export AWS_ACCESS_KEY_ID=AKIDBENCH AWS_SECRET_ACCESS_KEY=bench/secret AWS_DEFAULT_REGION=us-east-1 \
            AWS_SHARED_CREDENTIALS_FILE=/dev/null AWS_CONFIG_FILE="$work/aws-config"
        # The AWS CLI's concurrency set as afget's -j: one client each, as many requests at once.
        printf '[default]\ns3 =\n  max_concurrent_requests = 16\n  addressing_style = path\n' > "$work/aws-config"
        export RCLONE_CONFIG_MOTO_TYPE=s3 RCLONE_CONFIG_MOTO_PROVIDER=Other RCLONE_CONFIG_MOTO_ENDPOINT="$s3_endpoint" \
            RCLONE_CONFIG_MOTO_ACCESS_KEY_ID=$AWS_ACCESS_KEY_ID RCLONE_CONFIG_MOTO_SECRET_ACCESS_KEY=$AWS_SECRET_ACCESS_KEY \
            RCLONE_CONFIG_MOTO_FORCE_PATH_STYLE=true
        python3 - "$s3_endpoint" "$s3_count" "$s3_large_mib" <<'PY'
import boto3, os, sys
from concurrent.futures import ThreadPoolExecutor
from botocore.config import Config
endpoint, count, large_mib = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
s3 = boto3.client("s3", endpoint_url=endpoint, config=Config(
    s3={"addressing_style": "path"}, request_checksum_calculation="when_required", max_pool_connections=16))
s3.create_bucket(Bucket="bench")
with ThreadPoolExecutor(16) as pool:
    list(pool.map(lambda i: s3.put_object(Bucket="bench", Key=f"prefix/d{i % 10}/f{i}.bin", Body=os.urandom(1 << 20)),
                  range(count)))
# One PUT of the whole object: a single-part ETag, so afget checks its MD5 as it would on AWS.
with open("/dev/urandom", "rb") as random:
    s3.put_object(Bucket="bench", Key="large.bin", Body=random.read(large_mib << 20))
PY
        bench "s3-prefix-${s3_count}" "rm -rf $out/prefix; sync" \
            "afget=$afget -q -j 16 --s3-endpoint $s3_endpoint -d $out/prefix s3://bench/prefix/" \
            "aws-cli=aws s3 cp --quiet --recursive --endpoint-url $s3_endpoint s3://bench/prefix/ $out/prefix/" \
            "rclone=rclone copy --transfers 16 --checkers 16 moto:bench/prefix $out/prefix" \
            "rclone+sync=rclone copy --transfers 16 --checkers 16 moto:bench/prefix $out/prefix && sync"
        bench "s3-large-${s3_large_mib}M" "rm -f $out/large.bin*; sync" \
            "afget=$afget -q --s3-endpoint $s3_endpoint -o $out/large.bin s3://bench/large.bin" \
            "aws-cli=aws s3 cp --quiet --endpoint-url $s3_endpoint s3://bench/large.bin $out/large.bin" \
            "rclone=rclone copyto --multi-thread-streams 8 moto:bench/large.bin $out/large.bin"
        kill "$moto_pid"
        rm -rf "$out/prefix" "$out"/large.bin*
        ;;
    *)
        echo "unknown case $case (large, small, small-1k, small-tls, list-100k, rerun-100k, list-404, split, mirrors, crawl, memory, s3)" >&2
        exit 2
        ;;
    esac
done

echo
echo "median of $runs runs, the tools taking turns; afget/best = afget's wall time over the fastest peer's"
echo "afget/limit = afget's wall time over the limit's: large, dd+fsync (the same bytes copied and made durable);"
echo "  small cases, curl+sync (curl -Z then one syncfs: a reference rather than a floor, durable once at the end"
echo "  but without afget's per-file rename); split, the bound below; s3-prefix, rclone+sync"
if [ -n "$baseline" ]; then
    echo "afget/base = afget's wall time over the baseline's ($baseline, same arguments)"
fi
if grep -q '^[^ ]* floor-' "$results" || [ -s "$nofloor" ]; then
    echo "afget/floor, cpu/floor = afget's wall and CPU time over the libcurl floor's (curlfloor: libcurl and the"
    echo "  kernel with nothing of afget's, so what lies between is afget's own work): floor-durable (afget's file"
    echo "  contract) where files are made, floor-discard for the 404 lists; n/a where curlfloor cannot run"
    echo "  targets (DESIGN.md §7): small-1k wall ≤ 1.10 and CPU ≤ 1.30; small ≤ 1.10; list-404 ≤ 1.15"
fi
echo "(memory cases: one run each, for peak memory; their times are not compared)"
split_bound="$(awk -v m="$split_mib" -v c="$split_conns" -v r="$split_rate_mib" 'BEGIN { printf "%.3f", m / (c * r) }')"
mirror_bound="$(awk -v m="$split_mib" -v c="$mirror_conns" -v r="$split_rate_mib" 'BEGIN { printf "%.3f", m / (c * r) }')"
if [ -s "$wire" ]; then
    echo "split cases: wire = bytes nginx sent (headers included) per counted run over the file's size;"
    echo "  conns = distinct connections per run, median; the bound (afget/limit) is"
    echo "  $split_mib MiB / ($split_conns × $split_rate_mib MiB/s) = $split_bound s, $split_conns connections or streams at the limit"
    echo "  (split-mirrors: $split_mib MiB / ($mirror_conns × $split_rate_mib MiB/s) = $mirror_bound s)"
    echo "  targets: afget/best ≤ 0.95 (5 % faster than aria2c and axel), afget/limit ≤ 1.10, afget's wire ≤ 1.01"
fi
python3 - "$results" "$wire" "$split_bound" "$mirror_bound" "$items" "$nofloor" <<'PY'
import sys
rows = []
for line in open(sys.argv[1]):
    case, tool, wall, cpu, peak = line.split()
    rows.append((case, tool, float(wall), float(cpu), int(peak) / 1024))
wire = {}
for line in open(sys.argv[2]):
    case, tool, ratio, conns = line.split()
    wire[case, tool] = (float(ratio), float(conns))
bound, mirror_bound = float(sys.argv[3]), float(sys.argv[4])
items = {case: int(count) for case, count in (line.split() for line in open(sys.argv[5]))}
nofloor = {line.strip() for line in open(sys.argv[6])}
# The afget/base column only when BASELINE was given, and wire and conns only when a split case
# ran, so that the table is otherwise unchanged.
with_base = any(r[1] == "baseline" for r in rows)
with_wire = bool(wire)
# What a case's afget/limit divides by: a tool's time where the case times one, not a peer.
references = ("dd+fsync", "curl+sync", "rclone+sync")
# Limits that are not peers either: h2load (the server and loopback alone) and curlfloor's modes.
def is_limit(tool):
    return tool == "h2load" or tool.startswith("floor-")
# The floor afget/floor divides by: the durable mode keeps afget's own file contract; a 404 list
# makes no file, so there the floor is libcurl's requests with the bodies thrown away.
def floor_of(case):
    return "floor-discard" if case.startswith("list-404") else "floor-durable"
with_floor = any(r[1].startswith("floor-") for r in rows) or bool(nofloor)
print(f"{'case':<16}{'tool':<15}{'wall s':>9}{'cpu s':>9}{'peak MiB':>10}"
      + (f"{'wire':>7}{'conns':>7}" if with_wire else "") + f"{'afget/best':>12}"
      + (f"{'afget/base':>12}" if with_base else "") + f"{'afget/limit':>12}"
      + (f"{'afget/floor':>12}{'cpu/floor':>11}" if with_floor else ""))
for case in dict.fromkeys(r[0] for r in rows):
    mine = [r for r in rows if r[0] == case]
    afget = next(r[2] for r in mine if r[1] == "afget")
    afget_cpu = next(r[3] for r in mine if r[1] == "afget")
    peers = [r[2] for r in mine if r[1] not in ("afget", "baseline", "dd") + references and not is_limit(r[1])]
    ratio = f"{afget / min(peers):>12.2f}" if peers and not case.startswith("memory") else ""
    base = next((r[2] for r in mine if r[1] == "baseline"), None)
    base_ratio = f"{afget / base:>12.2f}" if base and not case.startswith("memory") else ""
    limit = mirror_bound if case == "split-mirrors" else bound if case.startswith("split") else next((r[2] for r in mine if r[1] in references), None)
    limit_ratio = f"{afget / limit:>12.2f}" if limit and not case.startswith("memory") else ""
    floor = next((r for r in mine if r[1] == floor_of(case)), None)
    if floor:
        floor_ratio = f"{afget / floor[2]:>12.2f}{afget_cpu / floor[3]:>11.2f}"
    else:
        floor_ratio = f"{'n/a':>12}{'n/a':>11}" if case in nofloor else f"{'':>23}"
    for index, (_, tool, wall, cpu, peak) in enumerate(mine):
        counted = wire.get((case, tool))
        print(f"{case:<16}{tool:<15}{wall:>9.3f}{cpu:>9.3f}{peak:>10.1f}"
              + ((f"{counted[0]:>7.3f}{counted[1]:>7g}" if counted else f"{'':>14}") if with_wire else "")
              + f"{ratio if index == 0 else '':>12}"
              + (f"{base_ratio if index == 0 else '':>12}" if with_base else "")
              + f"{limit_ratio if index == 0 else '':>12}"
              + (f"{floor_ratio if index == 0 else '':>23}" if with_floor else ""))
# CPU per item: the floor's is what libcurl and the kernel cost an item; afget's excess over it is
# afget's own work per item, the figure the per-item redesign (issue 53) is measured by.
per_item = []
for case, count in items.items():
    mine = {r[1]: r[3] for r in rows if r[0] == case}
    if "afget" not in mine:
        continue
    shown = [t for t in ("afget", "baseline") if t in mine] + [t for t in mine if t.startswith("floor-")]
    line = "  ".join(f"{t} {mine[t] / count * 1e6:,.1f}" for t in shown)
    if floor_of(case) in mine:
        line += f"  (afget's own: {(mine['afget'] - mine[floor_of(case)]) / count * 1e6:,.1f} over {floor_of(case)})"
    elif case == "crawl":
        line += "  (floor n/a: curlfloor fetches a list, a crawl finds its URLs in its pages)"
    elif case in nofloor:
        line += "  (floor n/a: curlfloor takes no CA and cannot skip verification)"
    per_item.append(f"  {case:<16}{line}")
if per_item:
    print("CPU µs per item (user+sys over the items):")
    print("\n".join(per_item))
rerun = [f"{r[1]} {100000 / r[2]:,.0f}" for r in rows if r[0] == "rerun-100k"]
if rerun:
    print(f"re-run of 100 000 complete items, items/s: {', '.join(rerun)}")
lists = [f"{r[4]:.1f} MiB for {r[0][len('list-404-'):]}" for r in rows if r[0].startswith("list-404") and r[1] == "afget"]
if lists:
    print(f"afget's peak memory over a list's length: {', '.join(lists)} (issue target: at most 64 MiB for 1000k)")
peaks = [f"{r[4]:.1f} MiB for {r[0][len('memory-'):]}" for r in rows if r[0].startswith("memory") and r[1] == "afget"]
if peaks:
    print(f"afget's peak memory: {', '.join(peaks)} (DESIGN.md §7: flat in file size, under 40 MiB)")
PY
