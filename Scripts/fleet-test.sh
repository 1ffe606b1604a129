#!/usr/bin/env bash
# Runs docs/fleet.md's recipes for real on this machine and prints one line per recipe (ok,
# defect or skipped), exiting 1 on any defect:
#   - a single-node Slurm cluster (munged with its own key and socket, slurmctld and slurmd on
#     free loopback ports, everything in a temporary directory) runs the job array as the doc
#     prints it over ~60 files served by nginx: each file fetched once (nginx's access log), exact
#     bytes, the reports merged by the doc's jq line; then, over files served slowly, one task
#     cancelled midway (scancel) and requeued, fetching only what it lacked (206 continues);
#   - the GNU parallel line on this machine, then one shard run again as the doc says;
#   - the Kubernetes Job's command, run by sh with JOB_COMPLETION_INDEX as Kubernetes sets it.
# The commands are read out of docs/fleet.md (only /shared and /data are moved into the temporary
# directory), so the doc says what this script ran.
#   Scripts/fleet-test.sh    AFGET_BINARY=path picks the binary (default: the debug build,
#                            built first); KEEP=1 keeps the temporary directory.
# Scripts/test.sh runs it after the test suite, with the release binary.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
doc="$root/docs/fleet.md"
source "$root/Scripts/packages.sh"
ensure_packages slurm-wlm munge parallel nginx-light jq python3
if [ -z "${AFGET_BINARY:-}" ]; then
    (cd "$root" && swift build --product afget >&2)
    AFGET_BINARY="$(cd "$root" && swift build --show-bin-path)/afget"
fi
AFGET_BINARY="$(realpath "$AFGET_BINARY")"
[ -x "$AFGET_BINARY" ] || { echo "fleet-test: no afget binary at $AFGET_BINARY" >&2; exit 1; }
started=$SECONDS

work="$(mktemp -d /tmp/afget-fleet.XXXXXX)"
chmod 0755 "$work" # munged wants every directory above its socket searchable by all
pids=()            # every daemon this script started, killed in reverse order on exit
cleanup() {
    local status=$?
    # Jobs first (slurmd's step daemons are not its children once detached), then the daemons.
    if [ -n "${SLURM_CONF:-}" ] && [ -n "${slurm_up:-}" ]; then
        scancel --quiet --full --signal=KILL --user=root 2> /dev/null || true
        scancel --quiet --user=root 2> /dev/null || true
        wait_for 10 "the jobs to end" jobs_gone 2> /dev/null || true
    fi
    local i
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2> /dev/null || true; done
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        for _ in $(seq 50); do kill -0 "${pids[i]}" 2> /dev/null || break; sleep 0.1; done
        kill -KILL "${pids[i]}" 2> /dev/null || true
        wait "${pids[i]}" 2> /dev/null || true
    done
    if [ -n "${KEEP:-}" ]; then echo "fleet-test: kept $work" >&2; else rm -rf "$work"; fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

defects=0
say() { echo "fleet-test: $*"; }
# A recipe's checks append to $problems; the recipe's line says ok or lists them.
problems=()
problem() { problems+=("$*"); }
phase_started=$SECONDS
verdict() {
    set -- "$1" "${2:+$2, }$((SECONDS - phase_started)) s"
    phase_started=$SECONDS
    if [ ${#problems[@]} -eq 0 ]; then
        say "$1: ok${2:+ ($2)}"
    else
        say "$1: defect: $(IFS=';'; echo "${problems[*]}")"
        defects=$((defects + 1))
    fi
    problems=()
}

# wait_for SECONDS WHAT COMMAND...: polls COMMAND until it succeeds; a timeout is a defect
# naming WHAT, never a guess that it has happened by now.
wait_for() {
    local deadline=$((SECONDS + $1)) what=$2
    shift 2
    until "$@"; do
        if [ $SECONDS -ge $deadline ]; then
            echo "fleet-test: timed out waiting for $what" >&2
            return 1
        fi
        sleep 0.1
    done
}

free_ports() { # free_ports N: N loopback ports nothing listens on now
    python3 -c 'import socket,sys
s=[socket.socket() for _ in range(int(sys.argv[1]))]
[x.bind(("127.0.0.1", 0)) for x in s]
print(" ".join(str(x.getsockname()[1]) for x in s))' "$1"
}

# ---- the recipes, read out of docs/fleet.md ----
# code_block FIRST-LINE: the indented block of the doc starting with that line, unindented.
code_block() {
    awk -v first="$1" '
        !found && $0 == "    " first { found = 1 }
        found && /^$/ { exit }
        found { sub(/^    /, ""); print }' "$doc"
}
slurm_script="$(code_block '#!/bin/bash')"
parallel_line="$(code_block 'parallel --jobs 1 --sshloginfile hosts.txt --workdir . \' | sed 's/\\$//' | tr -s ' \n' '  ')"
# The Job's args: a YAML plain scalar folded over two lines (one space between them).
k8s_command="$(awk '/^                - afget / { sub(/^ *- /, ""); line = $0; getline; sub(/^ */, " "); print line $0 }' "$doc")"
k8s_completions="$(awk '/^      completions: / { print $2 }' "$doc")"
merge_filter="$(code_block "jq -s '{items: (map(.items) | add | sort_by(.id)),")"
merge_filter="${merge_filter#jq -s \'}"
merge_filter="${merge_filter%\' shard-\*.json > report.json}"
for name in slurm_script parallel_line k8s_command k8s_completions merge_filter; do
    [ -n "${!name}" ] || { echo "fleet-test: docs/fleet.md no longer has the $name this script runs" >&2; exit 1; }
done
slurm_count="$(grep -o -- '--shard auto/[0-9]*' <<< "$slurm_script" | cut -d/ -f2)"

# ---- the files and nginx ----
mkdir -p "$work/www" "$work/nginx/tmp" "$work/bin"
ln -s "$AFGET_BINARY" "$work/bin/afget" # the recipes say `afget`
export PATH="$work/bin:$PATH"
count=60
for ((i = 0; i < count; i++)); do
    # 4 KiB to ~180 KiB, and one in six over 1 MiB: afget continues a file over 1 MiB that a run
    # left short, and starts a smaller one over. Under the slow location a share's small files end
    # well before its large one.
    size=$((4096 + i * 3000))
    [ $((i % 6)) -ne 5 ] || size=$((1200000 + i * 1000))
    head -c $size /dev/urandom > "$work/www/file-$i.bin"
done
(cd "$work/www" && sha256sum file-*.bin) > "$work/sums"
read -r port ctld_port slurmd_port late_port < <(free_ports 4)
# /a/ for the job array, /b/ slowly for the cancelled task, /c/ for parallel, /d/ for Kubernetes,
# /e/ for the task that requeues itself: one directory, so a shard takes the same file names
# whatever the location (the shard is the destination's hash), and each recipe has its own lines
# in the access log.
cat > "$work/nginx/nginx.conf" << EOF
daemon off; master_process off; worker_processes 1; pid $work/nginx/nginx.pid; error_log $work/nginx/error.log;
events { worker_connections 512; }
http {
    log_format fleet '\$uri \$status \$body_bytes_sent "\$http_range"';
    access_log $work/nginx/access.log fleet;
    client_body_temp_path $work/nginx/tmp; proxy_temp_path $work/nginx/tmp;
    default_type application/octet-stream;
    server {
        listen 127.0.0.1:$port;
        location /a/ { alias $work/www/; }
        location /b/ { alias $work/www/; limit_rate 320k; }
        location /c/ { alias $work/www/; }
        location /d/ { alias $work/www/; }
        location /e/ { alias $work/www/; }
    }
}
EOF
nginx -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" &
pids+=($!)
nginx_up() { (exec 3<> "/dev/tcp/127.0.0.1/$port") 2> /dev/null; }
wait_for 10 "nginx on port $port" nginx_up
list() { for ((i = 0; i < count; i++)); do echo "http://127.0.0.1:$port/$1/file-$i.bin"; done; }

# check_once LOCATION DIR: every file of the list fetched whole once under LOCATION (nginx's
# log: one 200 of the full size per path, nothing else) and exactly the bytes served.
check_once() {
    local location=$1 dir=$2 i size got
    for ((i = 0; i < count; i++)); do
        size=$(stat -c %s "$work/www/file-$i.bin")
        got="$(grep -c "^/$location/file-$i.bin " "$work/nginx/access.log" || true)"
        [ "$got" -eq 1 ] && grep -qx "/$location/file-$i.bin 200 $size \"-\"" "$work/nginx/access.log" \
            || { problem "/$location/file-$i.bin: $got requests, not one whole 200"; return; }
    done
    (cd "$dir" && sha256sum --quiet -c "$work/sums") > "$work/sha.out" 2>&1 \
        || problem "files differ from the served ones: $(head -c 300 "$work/sha.out" | tr '\n' ' ')"
}

# check_merge DIR [BYTES]: the doc's jq line over DIR/shard-*.json: every item once in list order,
# the summary's counts adding up to the list, exit 0, and the bytes of the list (BYTES: a re-run
# counts only what it fetched).
check_merge() {
    local dir=$1 bytes=${2-$(cat "$work"/www/file-*.bin | wc -c)}
    (cd "$dir" && jq -s "$merge_filter" shard-*.json > report.json) || { problem "the doc's jq line failed in $dir"; return; }
    local ids sum
    ids="$(jq -c '[.items[].id]' "$dir/report.json")"
    [ "$ids" = "$(jq -cn "[range($count)]")" ] || problem "merged report's ids are $ids"
    sum="$(jq -r '.summary | "\(.downloaded + .skipped) \(.failed) \(.exit) \(.bytes)"' "$dir/report.json")"
    local want="$count 0 0 $bytes"
    [ -n "$bytes" ] || { sum=${sum% *}; want="$count 0 0"; }
    [ "$sum" = "$want" ] || problem "merged summary (downloaded+skipped failed exit bytes) is \"$sum\", not \"$want\""
}

# ---- Slurm ----
slurm_skip=""
start_slurm() {
    mkdir -p "$work/slurm/state" "$work/slurm/spool" "$work/slurm/log" "$work/munge"
    chmod 0700 "$work/slurm/state"
    # munged: its own key and socket, so this cluster trusts no other and no other trusts it.
    head -c 1024 /dev/urandom > "$work/munge/key"
    chmod 0600 "$work/munge/key"
    local m=$work/munge
    munged -F --force -S "$m/socket" --key-file="$m/key" --log-file="$m/log" --pid-file="$m/pid" \
        --seed-file="$m/seed" > "$m/out" 2>&1 &
    pids+=($!)
    wait_for 10 "munged's socket" test -S "$m/socket" || { slurm_skip="munged did not start: $(tail -n 1 "$m/out")"; return; }
    # CPUs: 64 (config_overrides): 32 two-CPU tasks at once, a fleet's worth of shards on 2 cores;
    # afget waits on the network, not the CPU. cred_expire=5: a requeued task waits that long
    # before it runs again (120 s by default). jobcomp/filetxt: sacct needs slurmdbd.
    cat > "$work/slurm/slurm.conf" << EOF
ClusterName=afgetfleet
SlurmctldHost=$(hostname)(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$m/socket,cred_expire=5
CredType=cred/munge
StateSaveLocation=$work/slurm/state
SlurmdSpoolDir=$work/slurm/spool
SlurmctldPidFile=$work/slurm/slurmctld.pid
SlurmdPidFile=$work/slurm/slurmd.pid
SlurmctldLogFile=$work/slurm/log/slurmctld.log
SlurmdLogFile=$work/slurm/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
SchedulerParameters=sched_interval=1
JobCompType=jobcomp/filetxt
JobCompLoc=$work/slurm/log/jobcomp.txt
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=fleet NodeHostname=$(hostname) NodeAddr=127.0.0.1 CPUs=64 State=UNKNOWN
PartitionName=fleet Nodes=fleet Default=YES MaxTime=INFINITE State=UP
EOF
    export SLURM_CONF="$work/slurm/slurm.conf"
    slurmctld -D -c -f "$SLURM_CONF" > "$work/slurm/log/slurmctld.out" 2>&1 &
    local ctld=$!
    pids+=($ctld)
    slurmd -D -N fleet -f "$SLURM_CONF" > "$work/slurm/log/slurmd.out" 2>&1 &
    local slurmd=$!
    pids+=($slurmd)
    slurm_up=1
    # Idle, or a daemon gone (its last words are the reason to skip): no waiting out the timeout.
    node_settled() {
        [ "$(sinfo -h -n fleet -o %T 2> /dev/null)" = idle ] || ! kill -0 "$ctld" 2> /dev/null || ! kill -0 "$slurmd" 2> /dev/null
    }
    if ! wait_for 30 "the Slurm node to be idle" node_settled || [ "$(sinfo -h -n fleet -o %T 2> /dev/null)" != idle ]; then
        local said
        said="$(grep -hiE 'error|fatal' "$work"/slurm/log/* 2> /dev/null | tail -n 1)"
        slurm_skip="the node did not come up (${said:-$(sinfo -h -o '%T %E' 2>&1 | head -n 1)})"
    fi
}
jobs_gone() { [ -z "$(squeue -h -o %i 2> /dev/null)" ]; }
# array_done PID: once no task is queued or running, stops the `sbatch --wait` PID: it polls at
# growing intervals (up to 32 s) and would say late what squeue says at once.
array_done() {
    wait_for 60 "the array's tasks to end" jobs_gone || problem "tasks still queued: $(squeue -h -o '%i %T' | head -n 3 | tr '\n' ' ')"
    kill "$1" 2> /dev/null || true
    wait "$1" 2> /dev/null || true
}
job_state() { scontrol -o show job "$1" 2> /dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2; }

# job_script DIR: the doc's job script with /shared moved to DIR.
job_script() { sed "s|/shared/|$1/|g" <<< "$slurm_script" > "$1/job.sh"; }

slurm_array() {
    local dir=$work/slurm-a
    mkdir -p "$dir/reports" "$dir/data"
    list a > "$dir/urls.txt"
    job_script "$dir"
    local status=0
    (cd "$dir" && timeout 60 sbatch --wait --parsable job.sh > sbatch.out 2>&1) || status=$?
    # A task's failure: afget's last line in its output (slurm-JOB_TASK.out).
    [ $status -eq 0 ] || problem "sbatch --wait exited $status: $(awk 'NF { print; exit }' "$dir"/slurm-*.out "$dir/sbatch.out" 2> /dev/null)"
    local reports
    reports=$(find "$dir/reports" -name 'shard-*.json' | wc -l)
    [ "$reports" -eq "$slurm_count" ] || problem "$reports reports from $slurm_count tasks"
    check_once a "$dir/data"
    check_merge "$dir/reports"
    verdict "slurm job array ($slurm_count tasks, sbatch --wait)" "$count files each fetched once, jq merge adds up"
}

slurm_cancel() {
    local dir=$work/slurm-b a=$work/slurm-a
    mkdir -p "$dir/reports" "$dir/data"
    list b > "$dir/urls.txt"
    job_script "$dir"
    # The task to cancel: from the first run's reports, a share with a small file (whole before
    # the cancel) and one over 1 MiB (midway at 320 KB/s).
    local task="" small="" large=""
    local t names
    for ((t = 1; t <= slurm_count; t++)); do
        names="$(cd "$work/www" && jq -r '.items[] | .url | sub(".*/"; "")' "$a/reports/shard-$t.json" | xargs -r ls -S -r)" || continue
        [ "$(wc -l <<< "$names")" -ge 2 ] || continue
        small="$(head -n 1 <<< "$names")" large="$(tail -n 1 <<< "$names")"
        if [ $(stat -c %s "$work/www/$small") -lt 200000 ] && [ $(stat -c %s "$work/www/$large") -gt 1100000 ]; then
            task=$t
            break
        fi
    done
    [ -n "$task" ] || { problem "no share has both a small and a large file"; verdict "slurm scancel midway then requeue"; return; }
    (cd "$dir" && exec sbatch --wait --parsable job.sh > "$dir/sbatch.out" 2>&1) &
    local waiter=$!
    local log=$work/nginx/access.log
    midway() { grep -q "^/b/$small 200 " "$log"; }
    wait_for 30 "/b/$small to be served" midway || problem "the task's small file was never served"
    grep -q "^/b/$large " "$log" && problem "/b/$large ended before the cancel: no midway"
    local job
    job="$(squeue -h -o '%F' | head -n 1)"
    scancel "${job}_$task" || problem "scancel ${job}_$task failed"
    array_done "$waiter"
    [ "$(job_state "${job}_$task")" = CANCELLED ] || problem "task $task is $(job_state "${job}_$task"), not CANCELLED"
    local partial
    partial="$(grep -c "^/b/$large 200 " "$log" || true)"
    [ "$partial" -eq 1 ] || problem "/b/$large: $partial 200s before the requeue, not one cut short"
    # The doc: a task requeued keeps its place (and so its shard, from --shard auto/N).
    scontrol requeue "${job}_$task" || problem "scontrol requeue ${job}_$task failed"
    task_done() { [ "$(job_state "${job}_$task")" = COMPLETED ]; }
    wait_for 40 "the requeued task $task to complete" task_done || problem "requeued task $task is $(job_state "${job}_$task")"
    # Nothing fetched twice in full: each path one whole 200; or, cut short by the cancel, a short
    # 200 and then a 206 for the rest when over 1 MiB, or a whole 200 again when smaller (it
    # starts over).
    grep -q "^/b/$large 206 [0-9]* \"bytes=[0-9]*-\"" "$log" || problem "/b/$large was not continued with a 206"
    local odd
    odd="$(cd "$work/www" && grep '^/b/' "$log" | awk '
        { path = substr($1, 4); cmd = "stat -c %s " path; cmd | getline size[path]; close(cmd)
          if ($2 == 200 && $3 == size[path]) whole[path]++; else if ($2 == 200) short[path]++
          else if ($2 == 206) cont[path]++; else other[path]++ }
        END { for (p in size) {
            big = size[p] > 1048576
            if (other[p] || whole[p] + cont[p] != 1 || short[p] > 1 || (short[p] && big != (cont[p] == 1))) print p
        } }' | head -n 3 | tr '\n' ' ')"
    [ -z "$odd" ] || problem "fetched otherwise than once, or cut short then continued (206) or started over: $odd"
    [ "$(grep -c '^/b/' "$log")" -ge "$count" ] || problem "fewer requests under /b/ than files"
    (cd "$dir/data" && sha256sum --quiet -c "$work/sums") > "$work/sha.out" 2>&1 || problem "files differ: $(head -c 300 "$work/sha.out")"
    check_merge "$dir/reports" ""
    verdict "slurm scancel midway then requeue (task $task)" "$small whole, $large continued with a 206, nothing fetched twice"
}

# The job script's own requeue: a task whose afget exits 4 (here: one file's server refuses
# connections) requeues itself and, run again once that server is up, finishes its share.
slurm_requeue() {
    local dir=$work/slurm-c a=$work/slurm-a
    mkdir -p "$dir/reports" "$dir/data" "$work/late"
    list e | sed "s|:$port/e/file-0.bin|:$late_port/e/file-0.bin|" > "$dir/urls.txt"
    job_script "$dir"
    local task
    task="$(grep -l '/file-0.bin"' "$a"/reports/shard-*.json | sed 's/.*shard-\([0-9]*\).json/\1/')" || true
    [ -n "$task" ] || { problem "no report of the first run has file-0.bin"; verdict "slurm job script requeueing itself"; return; }
    (cd "$dir" && exec sbatch --wait --parsable job.sh > "$dir/sbatch.out" 2>&1) &
    local waiter=$!
    local job=""
    job_id() { job="$(squeue -h -o '%F' | head -n 1)"; [ -n "$job" ]; }
    wait_for 20 "the array to be queued" job_id || problem "no job in the queue"
    requeued() { scontrol -o show job "${job}_$task" 2> /dev/null | grep -q 'Restarts=1 '; }
    wait_for 30 "task $task to requeue itself" requeued || problem "task $task did not requeue itself: $(job_state "${job}_$task"), $(cat "$dir"/slurm-*_"$task".out 2> /dev/null | tail -n 1)"
    # The server comes up while the task waits to run again.
    cat > "$work/late/nginx.conf" << EOF
daemon off; master_process off; worker_processes 1; pid $work/late/nginx.pid; error_log $work/late/error.log;
events { worker_connections 64; }
http {
    log_format fleet '\$uri \$status \$body_bytes_sent "\$http_range"';
    access_log $work/late/access.log fleet; client_body_temp_path $work/late; default_type application/octet-stream;
    server { listen 127.0.0.1:$late_port; location /e/ { alias $work/www/; } }
}
EOF
    nginx -c "$work/late/nginx.conf" -e "$work/late/error.log" &
    pids+=($!)
    array_done "$waiter"
    local states
    states="$(scontrol -o show job "$job" | grep -o 'JobState=[A-Z_]*' | sort | uniq -c | tr -s ' \n' '  ')"
    [ "$states" = " $slurm_count JobState=COMPLETED " ] || problem "the tasks' states: $states"
    [ "$(cat "$work/late/access.log" 2> /dev/null)" = "/e/file-0.bin 200 4096 \"-\"" ] || problem "the late server saw: $(cat "$work/late/access.log" 2> /dev/null)"
    (cd "$dir/data" && sha256sum --quiet -c "$work/sums") > "$work/sha.out" 2>&1 || problem "files differ: $(head -c 300 "$work/sha.out")"
    check_merge "$dir/reports" ""
    verdict "slurm job script requeueing itself on exit 4 (task $task)" "requeued once, then complete"
}

# ---- GNU parallel ----
gnu_parallel() {
    local dir=$work/parallel
    mkdir -p "$dir"
    list c > "$dir/urls.txt"
    # On one machine: the same line without --sshloginfile (the doc says so).
    local line=${parallel_line/--sshloginfile hosts.txt /}
    (cd "$dir" && timeout 60 bash -c "$line") > "$dir/out" 2>&1 || problem "parallel: $(tail -n 3 "$dir/out")"
    mkdir -p "$dir/all"
    cp -r "$dir"/data/shard-*/. "$dir/all/" 2> /dev/null || true
    check_once c "$dir/all"
    check_merge "$dir"
    # A shard run again with the same line and `::: 5` finishes only its share: one file of it
    # removed is fetched again, nothing else is asked for.
    local gone
    gone="$(ls "$dir/data/shard-5" 2> /dev/null | head -n 1)" || true
    [ -n "$gone" ] || { problem "shard 5 downloaded nothing"; verdict "gnu parallel"; return; }
    rm "$dir/data/shard-5/$gone"
    local before
    before=$(grep -c '^/c/' "$work/nginx/access.log")
    (cd "$dir" && timeout 60 bash -c "${line/\$(seq 0 7)/5}") > "$dir/out" 2>&1 || problem "parallel ::: 5: $(tail -n 3 "$dir/out")"
    local after
    after="$(grep '^/c/' "$work/nginx/access.log" | tail -n +$((before + 1)))"
    [ "$after" = "/c/$gone 200 $(stat -c %s "$work/www/$gone") \"-\"" ] || problem "re-run of shard 5 asked for: $(echo $after)"
    verdict "gnu parallel (8 shards on this machine, then ::: 5 again)" "$count files each fetched once, the re-run fetched only $gone"
}

# ---- Kubernetes ----
kubernetes() {
    local dir=$work/k8s n=$k8s_completions
    mkdir -p "$dir/files" "$dir/reports"
    list d > "$dir/urls.txt"
    local command=${k8s_command//\/data\//$dir/}
    grep -q -- "--shard auto/$n " <<< "$command" || problem "the command's --shard is not auto/$n (completions: $n)"
    local index status failed=0
    for ((index = 0; index < n; index++)); do
        # As a pod runs it: sh -c, JOB_COMPLETION_INDEX set, no Slurm variables.
        status=0
        env -u SLURM_CONF JOB_COMPLETION_INDEX=$index sh -c "$command" > "$dir/out" 2>&1 || status=$?
        [ $status -eq 0 ] || { [ $((failed++)) -gt 0 ] || problem "index $index exited $status: $(tail -n 1 "$dir/out")"; }
    done
    [ $failed -le 1 ] || problem "$failed indexes failed"
    check_once d "$dir/files"
    check_merge "$dir/reports"
    # Without the count Kubernetes gives none, so --shard auto alone is refused (exit 2).
    status=0
    env JOB_COMPLETION_INDEX=0 sh -c "${command/--shard auto\/$n/--shard auto}" > "$dir/out" 2>&1 || status=$?
    [ $status -eq 2 ] || problem "--shard auto without a count exited $status, not 2"
    verdict "kubernetes indexed job (its command under sh, JOB_COMPLETION_INDEX 0..$((n - 1)); no cluster)" "$count files each fetched once"
}

start_slurm
if [ -n "$slurm_skip" ]; then
    phase_started=$SECONDS
    say "slurm job array: skipped: $slurm_skip"
    say "slurm scancel midway then requeue: skipped: $slurm_skip"
    say "slurm job script requeueing itself: skipped: $slurm_skip"
else
    slurm_array
    slurm_cancel
    slurm_requeue
fi
gnu_parallel
kubernetes
say "$defects defect(s) in $((SECONDS - started)) s"
[ $defects -eq 0 ]
