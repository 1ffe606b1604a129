#!/usr/bin/env bash
# Interoperability check: the same download / resume / change / split / upload / gzip / mirror
# scenarios against real servers (nginx, apache2, lighttpd, caddy, python http.server, twisted, and nghttpd,
# HTTP/2 over TLS only; FTP: pyftpdlib and vsftpd, plain and with explicit TLS; OpenSSH's sshd over
# SFTP and SCP), and a slow-reading upload sink (slowsink, Scripts/interop/slow_sink.py)
# for the slow-upload scenario, printing a table server × scenario → ok / defect / n/a, one line
# per defect, and exiting 1 if any.
#   Scripts/interop.sh [-s SERVER,...] [-c SCENARIO,...]   AFGET=path skips the build; KEEP=1 keeps logs
# Not part of Scripts/test.sh: it installs servers the tests do not need (see docs/interop.md).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SERVERS_ALL="nginx apache lighttpd caddy python twisted nghttpd pyftpdlib vsftpd vsftpd-tls sftp scp moto slowsink"
SERVERS=$SERVERS_ALL
SCENARIOS_ALL="download resume changed shrunk split split-changed upload gzip compressed checksum metalink weak-etag 8bit-etag stale-mirror slow-upload recursive list"
SCENARIOS=$SCENARIOS_ALL
while getopts s:c:h option; do
    case $option in
        s) SERVERS=${OPTARG//,/ } ;;
        c) SCENARIOS=${OPTARG//,/ } ;;
        *) sed -n 2,8p "$0" >&2; exit 2 ;;
    esac
done
for name in $SERVERS; do [[ " $SERVERS_ALL " == *" $name "* ]] || { echo "unknown server: $name" >&2; exit 2; }; done
for name in $SCENARIOS; do [[ " $SCENARIOS_ALL " == *" $name "* ]] || { echo "unknown scenario: $name" >&2; exit 2; }; done
TIMEOUT=${TIMEOUT:-120}  # seconds for one afget run: longer is a hang, reported as a defect
RATE=${RATE:-8M}         # --limit-rate for runs that get interrupted: slow enough to catch them
MIN=$((4 << 20))         # interrupt once afget reports this many bytes

source "$root/Scripts/packages.sh"
ensure_packages nginx-light apache2 lighttpd lighttpd-mod-webdav lighttpd-mod-deflate caddy nghttp2-server openssl curl gzip \
    python3-pyftpdlib vsftpd openssh-server openssh-client
[[ " $SERVERS " != *" twisted "* ]] || python3 -c 'import twisted' 2>/dev/null || pip install -q twisted >&2
[[ " $SERVERS " != *" moto "* ]] || python3 -c 'import moto.server, boto3' 2>/dev/null || pip install -q 'moto[server]' boto3 >&2
if [ -z "${AFGET:-}" ]; then
    (cd "$root" && swift build --product afget >&2)
    AFGET="$(cd "$root" && swift build --show-bin-path)/afget"
fi

work="$(mktemp -d)"
chmod 0755 "$work"  # apache's children run as www-data when we are root
server_pid="" job=""
cleanup() {
    [ -z "$job" ] || kill "$job" 2>/dev/null || true
    [ -z "$server_pid" ] || { kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; } || true
    if [ -n "${KEEP:-}" ]; then echo "logs and files kept in $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Test data, made once: random bytes (incompressible) and 37 MiB of text that gzip shrinks ~4×.
mkdir -p "$work/src"
head -c 20M /dev/urandom >"$work/src/big.bin"
head -c 1200000 /dev/urandom >"$work/src/slow.bin"
head -c 64M /dev/urandom >"$work/src/huge.bin"
seq 1 5000000 >"$work/src/text.txt"
sha() { sha256sum "$1" | cut -d' ' -f1; }

# ---- servers: each writes its own config under $srv, serves $www on $port, sets PUT and GZIP ----
# (and where it differs: SCHEME and TLS, the options afget and curl need; RANGES; SETTLE, a server
# that describes a replaced file only after a while; ONLY, the scenarios that apply at all;
# LISTS, a server that answers a directory under tree/ with a listing of it;
# TAGGED, a server that sends $ETAG, taken from its config, as the ETag of every file under tag/
# instead of its own, so a scenario can choose a weak or a non-ASCII one: read at start only, so
# a scenario changes it with serve_etag, which restarts the server on the same port)
ETAG='W/"a-1"'
start_nginx() {
    mkdir -p "$www/dav" "$srv/tmp"
    cat >"$srv/nginx.conf" <<EOF
daemon off; master_process off; worker_processes 1; pid $srv/nginx.pid; error_log $srv/error.log;
events { worker_connections 64; }
http {
    access_log off; client_body_temp_path $srv/tmp; proxy_temp_path $srv/tmp;
    types { text/plain txt; } default_type application/octet-stream;
    gzip on; gzip_types text/plain;
    server {
        listen 127.0.0.1:$port; root $www;
        location /dav/ { dav_methods PUT; create_full_put_path on; client_max_body_size 0; }
        location /tag/ { etag off; add_header ETag '$ETAG' always; }
        location /tree/ { autoindex on; }
    }
}
EOF
    nginx -p "$srv" -c "$srv/nginx.conf" -e "$srv/error.log" 2>>"$srv/log" & server_pid=$!
    PUT=dav/ GZIP=1 TAGGED=1 LISTS=1
}
# mod_dav for PUT, mod_deflate for gzip; mod_headers replaces the core's ETag under tag/ (with
# FileETag None apache drops every ETag, also one set by mod_headers)
start_apache() {
    mkdir -p "$www/dav" "$srv/run"; chmod 0777 "$www/dav" "$srv/run"
    local modules="mpm_event authz_core mime filter deflate dav dav_fs headers autoindex" user=""
    [ "$(id -u)" -ne 0 ] || user="User www-data
Group www-data"
    { echo "ServerRoot /usr/lib/apache2"
      for module in $modules; do echo "LoadModule ${module}_module modules/mod_$module.so"; done
      cat <<EOF
ServerName localhost
Listen 127.0.0.1:$port
PidFile $srv/run/apache.pid
DefaultRuntimeDir $srv/run
ErrorLog $srv/error.log
$user
TypesConfig /dev/null
AddType text/plain .txt
DocumentRoot $www
DavLockDB $srv/run/davlock
<Directory $www>
    Require all granted
</Directory>
<Location /dav/>
    Dav On
</Location>
<Location /tag/>
    Header set ETag '$ETAG'
</Location>
<Directory $www/tree>
    Options +Indexes
    IndexOptions FancyIndexing
</Directory>
AddOutputFilterByType DEFLATE text/plain
EOF
    } >"$srv/apache.conf"
    apache2 -f "$srv/apache.conf" -DFOREGROUND 2>>"$srv/log" & server_pid=$!
    PUT=dav/ GZIP=1 TAGGED=1 LISTS=1
}
start_lighttpd() {  # mod_webdav for PUT, mod_deflate for gzip, mod_setenv for tag/; no stat cache, so changes are seen at once
    mkdir -p "$www/dav" "$srv/tmp"
    cat >"$srv/lighttpd.conf" <<EOF
server.modules = ("mod_webdav", "mod_deflate", "mod_setenv")
server.document-root = "$www"
server.bind = "127.0.0.1"
server.port = $port
server.errorlog = "$srv/error.log"
server.upload-dirs = ("$srv/tmp")
server.stat-cache-engine = "disable"
mimetype.assign = (".txt" => "text/plain", "" => "application/octet-stream")
deflate.mimetypes = ("text/plain")
deflate.allowed-encodings = ("gzip")
\$HTTP["url"] =~ "^/dav/" { webdav.activate = "enable" }
\$HTTP["url"] =~ "^/tag/" { static-file.etags = "disable" setenv.set-response-header = ("ETag" => "${ETAG//\"/\\\"}") }
\$HTTP["url"] =~ "^/tree/" { dir-listing.activate = "enable" }
EOF
    lighttpd -D -f "$srv/lighttpd.conf" 2>>"$srv/log" & server_pid=$!
    PUT=dav/ GZIP=1 TAGGED=1 LISTS=1
}
start_caddy() {  # file_server has no PUT; tag/'s ETag deferred, so it replaces file_server's own
    cat >"$srv/Caddyfile" <<EOF
{
    admin off
    auto_https off
    storage file_system $srv/data
}
http://127.0.0.1:$port {
    bind 127.0.0.1
    root * $www
    encode gzip
    header /tag/* {
        ETag "${ETAG//\"/\\\"}"
        defer
    }
    file_server browse
}
EOF
    HOME=$srv XDG_CONFIG_HOME=$srv XDG_DATA_HOME=$srv \
        caddy run --config "$srv/Caddyfile" --adapter caddyfile >>"$srv/log" 2>&1 & server_pid=$!
    PUT="" GZIP=1 TAGGED=1 LISTS=1
}
start_python() {  # http.server: no Range support at all, no PUT, no gzip
    python3 -m http.server --bind 127.0.0.1 --directory "$www" "$port" >>"$srv/log" 2>&1 & server_pid=$!
    PUT="" GZIP="" RANGES="" LISTS=1
}
start_twisted() {  # twisted.web.static.File: ranges, but If-Range is ignored
    twistd -n --pidfile "$srv/twistd.pid" --logfile "$srv/twistd.log" web --path "$www" \
        --listen "tcp:$port:interface=127.0.0.1" >>"$srv/log" 2>&1 & server_pid=$!
    PUT="" GZIP="" LISTS=1
}
start_nghttpd() {  # HTTP/2 only, over TLS (h2 by ALPN): a CA and a certificate for 127.0.0.1 made here
    local ca=(-nodes -newkey ec -pkeyopt ec_paramgen_curve:P-256)
    openssl req -x509 "${ca[@]}" -days 2 -subj /CN=afget-interop-ca -keyout "$srv/ca.key" -out "$srv/ca.pem" \
        -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign 2>>"$srv/log"
    openssl req -new "${ca[@]}" -subj /CN=127.0.0.1 -keyout "$srv/key.pem" -out "$srv/cert.csr" 2>>"$srv/log"
    openssl x509 -req -in "$srv/cert.csr" -CA "$srv/ca.pem" -CAkey "$srv/ca.key" -CAcreateserial -days 2 \
        -extfile <(printf 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n') -out "$srv/cert.pem" 2>>"$srv/log"
    nghttpd -a 127.0.0.1 -d "$www" "$port" "$srv/key.pem" "$srv/cert.pem" >>"$srv/log" 2>&1 & server_pid=$!
    # no Range (always 200), no gzip; PUT is answered like GET (404 for a new file); it keeps
    # what it knows of a file (its descriptor, length, mtime) for 10 s after a change
    SCHEME=https TLS=(--cacert "$srv/ca.pem") PUT="" GZIP="" RANGES="" SETTLE=1
}
start_pyftpdlib() {  # anonymous may write: uploads go to up/ (Debian's python3 has the module)
    mkdir -p "$www/up"
    /usr/bin/python3 -m pyftpdlib -i 127.0.0.1 -p "$port" -d "$www" -w >>"$srv/log" 2>&1 & server_pid=$!
    SCHEME=ftp PROBE=tcp PUT=up/ GZIP=""
}
start_vsftpd() {  # anonymous, read-only: an upload is refused (exit 8); TLS_MODE=explicit: AUTH TLS required
    local ssl=NO
    if [ -n "${TLS_MODE:-}" ]; then
        ssl=YES
        openssl req -x509 -nodes -newkey ec -pkeyopt ec_paramgen_curve:P-256 -days 2 -subj /CN=127.0.0.1 \
            -addext subjectAltName=IP:127.0.0.1 -keyout "$srv/key.pem" -out "$srv/cert.pem" 2>>"$srv/log"
        TLS=(--ftp-ssl --cacert "$srv/cert.pem")
    fi
    mkdir -p "$srv/empty"
    cat >"$srv/vsftpd.conf" <<EOF
listen=YES
listen_address=127.0.0.1
listen_port=$port
run_as_launching_user=YES
background=NO
anonymous_enable=YES
anon_root=$www
local_enable=NO
write_enable=NO
seccomp_sandbox=NO
secure_chroot_dir=$srv/empty
xferlog_enable=NO
vsftpd_log_file=$srv/vsftpd.log
ssl_enable=$ssl
allow_anon_ssl=YES
force_anon_logins_ssl=YES
force_anon_data_ssl=YES
require_ssl_reuse=NO
rsa_cert_file=$srv/cert.pem
rsa_private_key_file=$srv/key.pem
EOF
    vsftpd "$srv/vsftpd.conf" >>"$srv/log" 2>&1 & server_pid=$!
    SCHEME=ftp PROBE=tcp PUT="" GZIP=""
}
start_vsftpd-tls() { TLS_MODE=explicit start_vsftpd; }
start_sftp() {  # sshd with a host key and a client key of its own; the host key pinned by fingerprint
    ssh-keygen -q -t ed25519 -N '' -f "$srv/host" && ssh-keygen -q -t ed25519 -N '' -f "$srv/client"
    [ "$(id -u)" -ne 0 ] || mkdir -p /run/sshd
    cat >"$srv/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $srv/host
PidFile $srv/sshd.pid
AuthorizedKeysFile $srv/client.pub
StrictModes no
UsePAM no
PasswordAuthentication no
Subsystem sftp internal-sftp
EOF
    /usr/sbin/sshd -D -e -f "$srv/sshd_config" >>"$srv/log" 2>&1 & server_pid=$!
    mkdir -p "$www/up"
    TLS=(--ssh-key "$srv/client" --ssh-host-key-sha256 "$(ssh-keygen -l -f "$srv/host.pub" | cut -d' ' -f2)")
    SCHEME=sftp BASEPATH=$www PROBE=tcp PUT=up/ GZIP=""
}
start_scp() { start_sftp; SCHEME=scp RANGES=""; }  # SCP cannot fetch part of a file: a continue starts over
start_moto() {  # moto's S3 server (pip): objects in memory, so what a scenario writes under $www is put (S3)
    python3 -m moto.server -p "$port" >>"$srv/log" 2>&1 & server_pid=$!
    export AWS_ACCESS_KEY_ID=AKIDINTEROP AWS_SECRET_ACCESS_KEY=interop/secret AWS_REGION=us-east-1 \
        AWS_SHARED_CREDENTIALS_FILE=/nonexistent AWS_CONFIG_FILE=/nonexistent
    S3="http://127.0.0.1:$port" SCHEME=s3 BASE=s3://interop PROBE=tcp PUT="" GZIP=""
    TLS=(--s3-endpoint "$S3" --s3-path-style)
    ONLY="download resume changed shrunk split split-changed upload checksum list"
}
start_slowsink() {  # reads a PUT body at 150 kB/s through a small receive buffer, records what it got
    SINK="$srv/received"
    python3 "$root/Scripts/interop/slow_sink.py" --port "$port" --record "$SINK" --rate 150000 --rcvbuf 16384 \
        >>"$srv/log" 2>&1 & server_pid=$!
    PUT="" GZIP="" ONLY=slow-upload
}
start_server() {  # start_server NAME [PORT]: on a free port unless given one
    RANGES=1 SCHEME=http TLS=() SETTLE="" ONLY="" SINK="" BASEPATH="" PROBE=http TAGGED="" LISTS="" S3="" BASE=""
    srv="$work/$1"; www="$srv/www"; out="$srv/out"; mkdir -p "$www" "$out"
    port=${2:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
    "start_$1"
    BASE=${BASE:-"$SCHEME://127.0.0.1:$port$BASEPATH"}
    local deadline=$((SECONDS + 20))
    # an FTP or SSH server is ready once it listens (curl would need afget's SSH options)
    until if [ "$PROBE" = tcp ]; then (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null
          else curl -s "${TLS[@]}" -o /dev/null --max-time 1 "$BASE/"; fi; do
        kill -0 "$server_pid" 2>/dev/null && [ $SECONDS -lt $deadline ] || { cat "$srv"/*log* >&2; return 1; }
        sleep 0.1
    done
}
stop_server() { kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; server_pid=""; }
# serve_etag VALUE: the server sends VALUE as tag/'s ETag from now on. Restarted on the same port,
# so the URLs in afget's resume data stay the same.
serve_etag() { [ "$ETAG" = "$1" ] || { ETAG=$1; stop_server; start_server "$server" "$port"; }; }

# ---- helpers ----
# publish NAME SOURCE: a fresh copy on the server, dated in the past so Last-Modified is a usable
# validator (it must be a second older than Date). change NAME [SIZE]: new bytes, later mtime.
publish() { cp "$2" "$www/$1"; touch -d '2024-01-01 00:00:00' "$www/$1"; put "$1"; }
# put NAME...: on an object store, sends what was written under $www there
put() { [ -z "$S3" ] || python3 "$root/Scripts/interop/s3_put.py" "$S3" interop "$www" "$@"; }
change() {
    head -c "${2:-$(stat -c %s "$www/$1")}" /dev/urandom >"$www/$1.new"
    touch -d '2024-06-01 00:00:00' "$www/$1.new"; mv "$www/$1.new" "$www/$1"; put "$1"
    [ -z "$SETTLE" ] || settle "$1"
}
# settle NAME: wait until the server describes the new file (its Last-Modified). A server that
# keeps the old file's descriptor and metadata for a while sends, until then, the old file whole
# and consistent, which no client can tell from a file that did not change.
settle() {
    local want got deadline=$((SECONDS + 30)); want=$(date -u -r "$www/$1" '+%a, %d %b %Y %H:%M:%S GMT')
    until got=$(curl -sI "${TLS[@]}" --max-time 2 -o /dev/null -w '%header{last-modified}' "$BASE/$1") && [ "$got" = "$want" ]; do
        [ $SECONDS -lt $deadline ] || { note "the server still described the old $1 (Last-Modified ${got:-none}) after 30 s"; return; }
        sleep 0.5
    done
}
# run TAG afget-args...: one afget run under timeout; rc, stdout in $log.out, stderr in $log.err.
# The server's TLS options go first (after "upload" for an upload).
run() {
    log="$srv/$scenario.$1"; shift; rc=0
    local args=("${TLS[@]}" "$@"); [ "$1" != upload ] || args=(upload "${TLS[@]}" "${@:2}")
    timeout -k 5 "$TIMEOUT" "$AFGET" "${args[@]}" >"$log.out" 2>"$log.err" || rc=$?
}
said() { tr '\n' ' ' <"$log.err" | cut -c1-300; }
defect() {
    verdict=defect
    if [ "$rc" -eq 124 ]; then why+="$* — hung (killed after ${TIMEOUT}s); "; else why+="$* — exit $rc, stderr: $(said); "; fi
}
note() { notes+="$server $scenario: $*"$'\n'; }
# expect_file DEST SHA [OTHER [WHAT]]: DEST holds exactly SHA and no .afpart/.afresume is left;
# OTHER is the sha256 of the other version (WHAT, default the OLD file), so a splice can be told.
expect_file() {
    local got; got=$( [ -f "$1" ] && sha "$1" || echo missing)
    if [ "$got" != "$2" ]; then
        if [ "$got" = "${3:-}" ]; then defect "${4:-the OLD file}'s bytes, not the right file's"
        elif [ -n "${3:-}" ] && [ "$got" != missing ]; then defect "SPLICED: the file is neither version (sha256 $got)"
        else defect "wrong bytes (sha256 $got, want $2)"; fi
    elif [ -e "$1.afpart" ] || [ -e "$1.afresume" ]; then defect "part file or resume data left after success"; fi
}
# interrupt DEST afget-args...: start a rate-limited download, wait until it reports MIN bytes
# (--progress json on stdout), SIGINT it; it must exit 130 leaving the part file and resume data.
interrupt() {
    local dest=$1 deadline=$((SECONDS + 60)) bytes=0 pid; shift
    log="$srv/$scenario.first"; rc=0
    timeout -k 5 "$TIMEOUT" "$AFGET" "${TLS[@]}" --progress json "$@" >"$log.out" 2>"$log.err" & pid=$! job=$!
    while kill -0 "$pid" 2>/dev/null && [ "$bytes" -lt $MIN ] && [ $SECONDS -lt $deadline ]; do
        sleep 0.05
        bytes=$(grep -o '"bytes":[0-9]*' "$log.out" | tail -1 | cut -d: -f2 || true); bytes=${bytes:-0}
    done
    # SIGINT to afget itself, as a terminal's Ctrl-C does: signalling timeout would deliver two
    # (timeout forwards it to the child and to its process group), and a second one means "quit now".
    kill -INT "$(pgrep -P "$pid")" 2>/dev/null || true
    wait "$pid" || rc=$?; job=""
    # finished before the SIGINT landed: the setup's fault (a smaller RATE helps), not afget's
    [ "$rc" -ne 0 ] || { verdict=n/a; note "afget finished before the SIGINT took effect: lower RATE"; return 1; }
    [ "$rc" -eq 130 ] || { defect "interrupted run: expected exit 130 after SIGINT at $bytes bytes"; return 1; }
    [ ! -e "$dest" ] || { defect "DEST exists after SIGINT"; return 1; }
    kept=""; [ -e "$dest.afpart" ] && [ -e "$dest.afresume" ] && kept=1 || note "SIGINT left no resume data: $(said)"
}
# what the last run did with the part file (its last "started" event and the bytes it fetched)
resumed() {
    local o b; o=$(grep '"started"' "$log.out" | tail -1 | grep -o '"offset":[0-9]*' | cut -d: -f2 || true)
    b=$(grep -o '"summary".*"bytes":[0-9]*' "$log.out" | grep -o '[0-9]*$' || true)
    if [ -n "$o" ]; then note "continued from byte $o, fetched ${b:-?} bytes"; return; fi
    note "started over, fetched ${b:-?} bytes$( [ ! -s "$log.err" ] || echo "; stderr: $(said)")"
    [ -z "${1:-}" ] || [ -z "$RANGES" ] || defect "started over although the server has ranges and validators"
}

# ---- scenarios: each sets verdict (ok / defect / n/a) and why ----
scenario_download() {
    publish d.bin "$work/src/big.bin"
    run get -q -o "$out/d.bin" "$BASE/d.bin"
    [ $rc -eq 0 ] || { defect "plain download failed"; return; }
    expect_file "$out/d.bin" "$(sha "$www/d.bin")"
    run again -q -o "$out/d.bin" "$BASE/d.bin"  # a re-run skips a complete file
    [ $rc -eq 0 ] || defect "re-run over a complete file"
}
scenario_resume() {
    publish r.bin "$work/src/big.bin"
    local command=(--progress json --limit-rate "$RATE" -o "$out/r.bin" "$BASE/r.bin")
    interrupt "$out/r.bin" "${command[@]:2}" || return 0
    run second "${command[@]}"
    [ $rc -eq 0 ] || { defect "re-run after SIGINT"; return; }
    expect_file "$out/r.bin" "$(sha "$www/r.bin")"; resumed must
}
scenario_changed() {
    publish c.bin "$work/src/big.bin"; local old; old=$(sha "$www/c.bin")
    interrupt "$out/c.bin" --limit-rate "$RATE" -o "$out/c.bin" "$BASE/c.bin" || return 0
    change c.bin
    if [ -n "$kept" ]; then  # with resume data, --no-restart must refuse and touch nothing
        local part; part=$(sha "$out/c.bin.afpart")
        run refuse --progress json --no-restart --limit-rate "$RATE" -o "$out/c.bin" "$BASE/c.bin"
        if [ $rc -ne 9 ]; then defect "--no-restart after the file changed: want exit 9"
        elif [ -e "$out/c.bin" ] || [ "$(sha "$out/c.bin.afpart")" != "$part" ] || [ ! -e "$out/c.bin.afresume" ]; then
            defect "--no-restart exit 9 but the part file or resume data was touched, or DEST created"; fi
    fi
    run second --progress json --limit-rate "$RATE" -o "$out/c.bin" "$BASE/c.bin"
    [ $rc -eq 0 ] || { defect "re-run after the file changed"; return; }
    expect_file "$out/c.bin" "$(sha "$www/c.bin")" "$old"; resumed
}
scenario_shrunk() {  # the file is replaced by one smaller than the part: 200, or 416 where If-Range is ignored
    publish k.bin "$work/src/big.bin"
    interrupt "$out/k.bin" --limit-rate "$RATE" -o "$out/k.bin" "$BASE/k.bin" || return 0
    change k.bin $((1 << 20))
    run second --progress json --limit-rate "$RATE" -o "$out/k.bin" "$BASE/k.bin"
    if [ $rc -eq 9 ] && [ ! -e "$out/k.bin" ] && [ -e "$out/k.bin.afpart" ]; then note "exit 9 (part larger than the remote file): $(said)"
    elif [ $rc -eq 0 ]; then expect_file "$out/k.bin" "$(sha "$www/k.bin")"; resumed
    else defect "re-run after the file shrank: want exit 0 with the new file, or a clean exit 9"; fi
}
scenario_split() {
    publish s.bin "$work/src/huge.bin"
    run get -q -s 4 -o "$out/s.bin" "$BASE/s.bin"
    [ $rc -eq 0 ] || { defect "-s 4 download"; return; }
    expect_file "$out/s.bin" "$(sha "$www/s.bin")"
}
scenario_split-changed() {
    publish t.bin "$work/src/huge.bin"; local old; old=$(sha "$www/t.bin")
    interrupt "$out/t.bin" -s 4 --limit-rate "$RATE" -o "$out/t.bin" "$BASE/t.bin" || return 0
    change t.bin
    run second --progress json -s 4 --limit-rate "$RATE" -o "$out/t.bin" "$BASE/t.bin"
    [ $rc -eq 0 ] || { defect "-s 4 re-run after the file changed"; return; }
    expect_file "$out/t.bin" "$(sha "$www/t.bin")" "$old"; resumed
}
scenario_upload() {
    if [ -n "$S3" ]; then  # one signed PUT (20 MiB), then 64 MiB in four parts at once, each read back
        local name got
        for name in big huge; do
            run "put-$name" upload -q -s 4 "$work/src/$name.bin" "$BASE/up/"
            [ $rc -eq 0 ] || { defect "upload of $name.bin to the bucket"; continue; }
            got=$(python3 -c 'import boto3, hashlib, sys
s3 = boto3.client("s3", endpoint_url=sys.argv[1], region_name="us-east-1")
print(hashlib.sha256(s3.get_object(Bucket="interop", Key=sys.argv[2])["Body"].read()).hexdigest())' "$S3" "up/$name.bin" 2>&1)
            [ "$got" = "$(sha "$work/src/$name.bin")" ] || defect "the stored up/$name.bin differs (read back: ${got:0:80})"
        done
        return
    fi
    if [ -z "$PUT" ]; then  # no PUT here: afget must still fail as an HTTP error (exit 8)
        run put upload -q "$work/src/big.bin" "$BASE/"
        verdict=n/a; [ $rc -eq 8 ] || defect "upload to a server without PUT: want exit 8"; return
    fi
    run put upload -q "$work/src/big.bin" "$BASE/$PUT"
    [ $rc -eq 0 ] || { defect "upload"; return; }
    [ "$(sha "$www/${PUT}big.bin" 2>/dev/null)" = "$(sha "$work/src/big.bin")" ] || defect "stored file differs"
}
scenario_gzip() {  # the gzip representation itself (-H, not --compressed), interrupted and continued
    [ -n "$GZIP" ] || { verdict=n/a; return; }
    publish g.txt "$work/src/text.txt"
    curl -s "${TLS[@]}" -H 'Accept-Encoding: gzip' -o "$srv/g.ref" "$BASE/g.txt"
    gzip -t "$srv/g.ref" 2>/dev/null || note "curl got no gzip body: the server did not compress"
    # a gzip body is only 6-11 MB: a quarter of the rate, so SIGINT lands before the end
    local command=(--progress json -H 'Accept-Encoding: gzip' --limit-rate $(( $(numfmt --from=iec "$RATE") / 4 )) -o "$out/g.gz" "$BASE/g.txt")
    interrupt "$out/g.gz" "${command[@]:2}" || return 0
    run second "${command[@]}"
    if [ $rc -ne 0 ]; then  # a clean failure: no DEST, and what is kept is a prefix of the representation
        [ $rc -ne 1 ] && [ $rc -ne 124 ] && [ ! -e "$out/g.gz" ] || { defect "gzip continue did not fail cleanly"; return; }
        if [ -e "$out/g.gz.afpart" ] && ! cmp -s -n "$(stat -c %s "$out/g.gz.afpart")" "$out/g.gz.afpart" "$srv/g.ref"; then
            defect "the kept part file ($(stat -c %s "$out/g.gz.afpart") bytes; the gzip body is $(stat -c %s "$srv/g.ref")) is not a prefix of the gzip body: spliced"
        else note "continue refused, exit $rc: $(said)"; fi
        return
    fi
    if [ "$(sha "$out/g.gz")" = "$(sha "$www/g.txt")" ]; then note "exit 0 with the identity representation"
    else expect_file "$out/g.gz" "$(sha "$srv/g.ref")"; resumed; fi
}
scenario_compressed() {  # --compressed must give the original bytes, also across SIGINT
    publish z.txt "$work/src/text.txt"; local want; want=$(sha "$www/z.txt")
    run get -q --compressed -o "$out/z1.txt" "$BASE/z.txt"
    [ $rc -eq 0 ] || { defect "--compressed download"; return; }
    expect_file "$out/z1.txt" "$want"
    local command=(--progress json --compressed --limit-rate "$RATE" -o "$out/z2.txt" "$BASE/z.txt")
    interrupt "$out/z2.txt" "${command[@]:2}" || return 0
    run second "${command[@]}"
    [ $rc -eq 0 ] || { defect "--compressed re-run after SIGINT"; return; }
    expect_file "$out/z2.txt" "$want"; resumed
}
scenario_checksum() {  # wrong checksum: exit 10, data kept; the right one then finishes (416 for ranges)
    publish x.bin "$work/src/big.bin"; local want; want=$(sha "$www/x.bin")
    run wrong -q --checksum "sha256=$(printf '0%.0s' {1..64})" -o "$out/x.bin" "$BASE/x.bin"
    [ $rc -eq 10 ] || { defect "wrong --checksum: want exit 10"; return; }
    [ ! -e "$out/x.bin" ] && [ -e "$out/x.bin.afpart" ] || { defect "exit 10 but DEST made or part not kept"; return; }
    run right --progress json --checksum "sha256=$want" -o "$out/x.bin" "$BASE/x.bin"
    [ $rc -eq 0 ] || { defect "right --checksum after a wrong one"; return; }
    expect_file "$out/x.bin" "$want"
    note "the re-run fetched $(grep -o '"summary".*"bytes":[0-9]*' "$log.out" | grep -o '[0-9]*$' || echo '?') bytes$( [ ! -s "$log.err" ] || echo "; stderr: $(said)")"
}
scenario_metalink() {  # piece hashes: the preferred URL serves a copy with one byte changed; its bad piece comes from the other
    publish m.bin "$work/src/big.bin"; local want; want=$(sha "$www/m.bin")
    mkdir -p "$www/bad"; python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[100000] ^= 0xFF; open(sys.argv[2], "wb").write(b)' "$www/m.bin" "$www/bad/m.bin"
    touch -d '2024-01-01 00:00:00' "$www/bad/m.bin"  # the same length and Last-Modified: only the pieces tell
    python3 - "$www/m.bin" "$BASE/bad/m.bin" "$BASE/m.bin" >"$srv/m.meta4" <<'PY'
import hashlib, sys
from xml.sax.saxutils import escape
data = open(sys.argv[1], "rb").read(); length = 256 * 1024
pieces = "".join("<hash>%s</hash>" % hashlib.sha256(data[i:i + length]).hexdigest() for i in range(0, len(data), length))
urls = "".join('<url priority="%d">%s</url>' % (n + 1, escape(u)) for n, u in enumerate(sys.argv[2:]))
print('<?xml version="1.0"?><metalink xmlns="urn:ietf:params:xml:ns:metalink"><file name="m.bin"><size>%d</size>'
      '<pieces length="%d" type="sha-256">%s</pieces>%s</file></metalink>' % (len(data), length, pieces, urls))
PY
    local split
    for split in one "-s 4"; do
        rm -f "$out/m.bin" "$out/m.bin.afpart" "$out/m.bin.afresume"
        # shellcheck disable=SC2086
        run "${split// /}" -q --metalink "$srv/m.meta4" $([ "$split" = one ] || echo "$split --min-split-size 1M") -d "$out"
        [ $rc -eq 0 ] || { defect "a corrupt first URL ($split)"; return; }
        expect_file "$out/m.bin" "$want"
        grep -q "dropping source $BASE/bad/m.bin (piece 0 did not match" "$log.err" || note "($split) the corrupt URL was not dropped for its piece: $(said)"
    done
}
# A file replaced by one of the same length that keeps the old mtime (cp -p, rsync -t, a restore
# do that): Last-Modified cannot tell the versions apart, so a date in If-Range matches and the
# server answers the continue with 206 and the NEW bytes. Only the ETag, which changed, shows it,
# and it is one afget never sends in If-Range (weak, or holding non-ASCII bytes): afget must
# compare it itself and start over, with one connection and with -s 4.
scenario_weak-etag() { etag_replaced 'W/"a-1"' 'W/"b-2"'; }
scenario_8bit-etag() { etag_replaced '"a-é"' '"b-é"'; }  # strong, raw UTF-8 bytes (obs-text)
etag_replaced() {
    [ -n "$TAGGED" ] || { verdict=n/a; return; }
    local old_tag=$1 new_tag=$2 split name source old date got
    mkdir -p "$www/tag"
    for split in one "-s 4"; do
        name=${scenario%%-*}${split//[^0-9]/}.bin; source=$work/src/big.bin
        [ "$split" = one ] || source=$work/src/huge.bin  # as split-changed: 4 connections need more to interrupt
        serve_etag "$old_tag"
        publish "tag/$name" "$source"; old=$(sha "$www/tag/$name")
        got=$(curl -sI --max-time 5 -o /dev/null -w '%header{etag}' "$BASE/tag/$name")
        [ "$got" = "$old_tag" ] || { verdict=n/a; note "setup: the server sent ETag '$got', not '$old_tag'"; return; }
        # shellcheck disable=SC2046
        interrupt "$out/$name" $([ "$split" = one ] || echo "$split") --limit-rate "$RATE" -o "$out/$name" "$BASE/tag/$name" || return 0
        head -c "$(stat -c %s "$www/tag/$name")" /dev/urandom >"$www/tag/$name.new"
        touch -r "$www/tag/$name" "$www/tag/$name.new"; mv "$www/tag/$name.new" "$www/tag/$name"
        serve_etag "$new_tag"
        # what the continue will get: a 206 of the new file under the new tag, the old date matching
        date=$(date -u -r "$www/tag/$name" '+%a, %d %b %Y %H:%M:%S GMT')
        got=$(curl -s --max-time 5 -o /dev/null -r 1000- -H "If-Range: $date" -w '%{http_code} %header{etag}' "$BASE/tag/$name")
        [ "$got" = "206 $new_tag" ] || { verdict=n/a; note "setup: Range + If-Range ($date) got '$got', not '206 $new_tag'"; return; }
        # shellcheck disable=SC2046
        run "second${split//[ -]/}" --progress json $([ "$split" = one ] || echo "$split") --limit-rate "$RATE" -o "$out/$name" "$BASE/tag/$name"
        [ $rc -eq 0 ] || { defect "($split) re-run after the file was replaced under the same date"; return; }
        expect_file "$out/$name" "$(sha "$www/tag/$name")" "$old"; resumed
        grep -q "the file changed on the server (ETag" "$log.err" || note "($split) no notice naming the ETag: $(said)"
    done
}
# Two sources of one file on the same server: the first, stale/, serves another file of the same
# length with another Last-Modified. With the checksum known (a list's checksum= line) the hash
# decides: the stale source is dropped for its bytes and the file ends exact, one connection and
# -s 4. Without a checksum, the first source fixes the file and a source that disagrees with it
# is dropped (its Last-Modified differs) — never spliced in.
scenario_stale-mirror() {
    publish v.bin "$work/src/big.bin"; local want stale split dir
    mkdir -p "$www/stale"; head -c "$(stat -c %s "$www/v.bin")" /dev/urandom >"$www/stale/v.bin"
    touch -d '2023-06-01 00:00:00' "$www/stale/v.bin"; stale=$(sha "$www/stale/v.bin"); want=$(sha "$www/v.bin")
    printf '%s\t%s\n  checksum=sha-256=%s\n' "$BASE/stale/v.bin" "$BASE/v.bin" "$want" >"$srv/stale.list"
    for split in one "-s 4"; do
        dir=$out/list${split//[^0-9]/}; mkdir -p "$dir"
        # shellcheck disable=SC2046
        run "list${split//[ -]/}" -q $([ "$split" = one ] || echo "$split") -i "$srv/stale.list" -d "$dir"
        if [ $rc -ne 0 ]; then
            defect "($split) stale first source, good second, checksum known"
            # afget's message says to run the same command again: say whether that ends it
            # shellcheck disable=SC2046
            run "again${split//[ -]/}" -q $([ "$split" = one ] || echo "$split") -i "$srv/stale.list" -d "$dir"
            note "($split) after the failure the same command again: exit $rc, $( [ "$(sha "$dir/v.bin" 2>/dev/null)" = "$want" ] && echo "the good file" || echo "no good file"); stderr: $(said)"
            continue
        fi
        expect_file "$dir/v.bin" "$want" "$stale" "the stale source"
        grep -q "dropping source $BASE/stale/v.bin (its bytes did not match the checksum)" "$log.err" ||
            defect "($split) the stale source was not dropped for its bytes"
    done
    run nosum -q -s 4 --mirror "$BASE/stale/v.bin" -o "$out/v.bin" "$BASE/v.bin"
    [ $rc -eq 0 ] || { defect "(no checksum, -s 4) good first source, stale second"; return; }
    expect_file "$out/v.bin" "$want" "$stale" "the stale source"
    # (without ranges -s 4 is one connection: the stale source is never asked)
    [ -z "$RANGES" ] || grep -q "dropping source $BASE/stale/v.bin (it serves another version of the file than $BASE/v.bin" "$log.err" ||
        note "(no checksum, -s 4) the stale source was not dropped as another version: $(said)"
}
scenario_slow-upload() {  # a server that reads the body slowly but steadily is no stall
    [ -n "$SINK" ] || { verdict=n/a; return; }
    local want got; want="complete $(stat -c %s "$work/src/slow.bin") $(sha "$work/src/slow.bin")"
    : >"$SINK"
    run put upload -q --stall-timeout 3 --retry 0 "$work/src/slow.bin" "$BASE/slow/"
    got=$(grep ' /slow/slow.bin$' "$SINK" | tail -1 || true)  # written before the sink answers
    if [ $rc -ne 0 ]; then  # what afget left in its kernel's send buffer still arrives: let the sink finish
        local deadline=$((SECONDS + 20))
        until [ -n "$got" ] || [ $SECONDS -ge $deadline ]; do sleep 0.5; got=$(grep ' /slow/slow.bin$' "$SINK" | tail -1 || true); done
        if [ "$(cut -d' ' -f1-3 <<<"$got")" = "$want" ]; then got="the sink read on and got every byte, in $(cut -d' ' -f4 <<<"$got") s"
        else got="the sink recorded: ${got:-nothing within 20 s}"; fi
        defect "upload to a sink reading 150 kB/s ($got)"; return
    fi
    [ "$(cut -d' ' -f1-3 <<<"$got")" = "$want" ] || { defect "exit 0, but the sink got: ${got:-nothing} (want: $want)"; return; }
    note "the sink read all $(cut -d' ' -f2 <<<"$got") bytes in $(cut -d' ' -f4 <<<"$got") s"
}
# afget -r -np over the server's listing of a small tree: every file exact, each directory's
# listing kept as its index.html, and nothing else asked for (the report's items: robots.txt,
# the listings, the files), whatever links the listing has (sort columns, the parent).
scenario_recursive() {
    [ -n "$LISTS" ] || { verdict=n/a; return; }
    local tree="$www/tree" name got want extra
    mkdir -p "$tree/sub/deeper" "$tree/empty dir" "$tree/other"
    head -c 300000 /dev/urandom >"$tree/a.bin"; head -c 1000 /dev/urandom >"$tree/name with spaces.txt"
    head -c 70000 /dev/urandom >"$tree/sub/b.bin"; head -c 5 /dev/urandom >"$tree/sub/deeper/c.txt"
    head -c 1 /dev/urandom >"$tree/other/d.bin"; head -c 2000 /dev/urandom >"$tree/sub/deeper/e.iso"
    echo "above the start directory" >"$www/beside-tree.txt"
    run get -q -r -np --report "$srv/recursive.json" -d "$out/rec" "$BASE/tree/"
    [ $rc -eq 0 ] || { defect "afget -r -np $BASE/tree/"; return; }
    local saved="$out/rec/127.0.0.1:$port"
    while IFS= read -r name; do
        want=$(sha "$www/$name"); got=$( [ -f "$saved/$name" ] && sha "$saved/$name" || echo missing)
        [ "$got" = "$want" ] || defect "tree file $name: sha256 $got, want $want"
    done < <(cd "$www" && find tree -type f | sort)
    while IFS= read -r name; do
        [ -f "$saved/$name/index.html" ] || defect "no listing of $name kept as its index.html"
    done < <(cd "$www" && find tree -type d | sort)
    # kept on disk: the tree's files and its listings, nothing else
    extra=$(cd "$saved" && find . -type f | sed 's|^\./||' | while IFS= read -r name; do
        [ ! -f "$www/$name" ] || continue
        case $name in */index.html) [ ! -d "$www/${name%index.html}" ] || continue ;; esac
        echo "$name"
    done)
    [ -z "$extra" ] || defect "kept files that are not the tree's: $(echo $extra)"
    # asked for: robots.txt, then the tree's directories and files alone
    extra=$(python3 - "$srv/recursive.json" "$BASE" "$www" <<'PY'
import json, os, sys, urllib.parse
report, base, www = sys.argv[1:]
for item in json.load(open(report))["items"]:
    url = item["url"]
    path = urllib.parse.unquote(urllib.parse.urlsplit(url).path)
    inside = path.startswith("/tree/") and os.path.exists(www + path) and not urllib.parse.urlsplit(url).query
    if url != base + "/robots.txt" and not inside:
        print(url)
PY
)
    [ -z "$extra" ] || defect "asked for what is not the tree's: $(echo $extra)"
}

# A list of 200 small files, 8 at once: the transfers' handles are kept for the next items, and
# over HTTP/2 (nghttpd) several share a connection, which libcurl treats differently at the end.
scenario_list() {
    local name missing="" bad=""
    mkdir -p "$www/list"
    for name in $(seq 200); do head -c 16384 /dev/urandom >"$www/list/f$name.bin"; done
    put list
    seq 200 | sed "s|.*|$BASE/list/f&.bin|" >"$srv/list.txt"
    run get -q -j 8 -d "$out/list" -i "$srv/list.txt"
    [ $rc -eq 0 ] || { defect "afget -j 8 -i (200 files of 16 KiB)"; return; }
    for name in $(seq 200); do
        if [ ! -f "$out/list/f$name.bin" ]; then missing+=" f$name.bin"
        elif [ "$(sha "$out/list/f$name.bin")" != "$(sha "$www/list/f$name.bin")" ]; then bad+=" f$name.bin"; fi
    done
    [ -z "$missing" ] || defect "files missing:$(echo $missing | cut -c1-200)"
    [ -z "$bad" ] || defect "wrong bytes:$(echo $bad | cut -c1-200)"
    [ -z "$(find "$out/list" -name '*.afpart' -o -name '*.afresume')" ] || defect "part files left after success"
}

# ---- main ----
declare -A table
defects="" notes=""
for server in $SERVERS; do
    echo "== $server" >&2
    start_server "$server"
    for scenario in $SCENARIOS; do
        verdict=ok why=""
        if [ -z "$ONLY" ] || [[ " $ONLY " == *" $scenario "* ]]; then "scenario_$scenario"; else verdict=n/a; fi
        table[$server/$scenario]=$verdict
        [ -z "$why" ] || defects+="$server $scenario: $why"$'\n'
    done
    stop_server
done
printf '%-9s' server; for scenario in $SCENARIOS; do printf ' %-13s' "$scenario"; done; echo
for server in $SERVERS; do
    printf '%-9s' "$server"
    for scenario in $SCENARIOS; do printf ' %-13s' "${table[$server/$scenario]}"; done; echo
done
[ -z "$notes" ] || printf '\nnotes:\n%s' "$notes"
[ -z "$defects" ] || { printf '\ndefects:\n%s' "$defects"; exit 1; }
