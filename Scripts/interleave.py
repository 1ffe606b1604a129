#!/usr/bin/env python3
"""Times commands in turn, for Scripts/bench.sh.

Usage: interleave.py RESULTS CASE RUNS WARMUP PREPARE TOOL=COMMAND...

Each round runs PREPARE, then one TOOL's COMMAND, for every tool in turn; WARMUP rounds are run
first and not counted, then RUNS rounds. Taking turns (rather than all runs of one tool, then the
next) means a burst of load from the machine's neighbours, which on a shared machine lasts
seconds, falls on every tool alike instead of on whichever ran during it.

Each command runs with BENCH_RUN=CASE.TOOL.ROUND in its environment, ROUND being 1 to RUNS or
"warmup", so that a command can tag its requests and a server's log tell the counted runs apart.

Appends a line per tool to RESULTS: CASE TOOL median-wall-seconds median-cpu-seconds peak-KiB,
where CPU is user+sys of the command and everything it started, and peak the largest resident
size of any of them in any counted run.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time


def run_once(command, run):
    """Wall seconds, CPU seconds and peak resident KiB of one run of a shell command, BENCH_RUN=run."""
    with tempfile.TemporaryFile() as errors, tempfile.NamedTemporaryFile("r") as peak:
        started = time.perf_counter()
        # GNU time reports the peak: a process forked from Python would count Python's own
        # memory as the tool's, since the peak survives exec.
        process = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", peak.name, "sh", "-c", command],
                                   stdout=subprocess.DEVNULL, stderr=errors,
                                   env=dict(os.environ, BENCH_RUN=run))
        # wait4's usage covers every process the command started (the tool itself).
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        if os.waitstatus_to_exitcode(status) != 0:
            errors.seek(0)
            sys.stderr.write(errors.read().decode(errors="replace"))
            sys.exit(f"interleave.py: '{command}' exited {os.waitstatus_to_exitcode(status)}")
        peak_kib = int(peak.read().split()[-1])
    return wall, usage.ru_utime + usage.ru_stime, peak_kib


def main():
    if len(sys.argv) < 7:
        sys.exit(__doc__)
    results, case, runs, warmup, prepare = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    tools = [entry.split("=", 1) for entry in sys.argv[6:]]
    measured = {tool: [] for tool, _ in tools}
    for round_number in range(warmup + runs):
        for tool, command in tools:
            subprocess.run(["sh", "-c", prepare], check=True)
            counted = round_number - warmup + 1
            sample = run_once(command, f"{case}.{tool}.{counted if counted > 0 else 'warmup'}")
            if round_number >= warmup:
                measured[tool].append(sample)
    with open(results, "a") as out:
        for tool, _ in tools:
            walls, cpus, peaks = zip(*measured[tool])
            out.write(f"{case} {tool} {statistics.median(walls):.4f} {statistics.median(cpus):.4f} {max(peaks)}\n")


if __name__ == "__main__":
    main()
