#!/usr/bin/env python3
"""Runs a command and reports the CPU time of each of its threads.

On a shared machine the wall time of a multi-threaded run says little (the
scheduler shares the cores among sessions, not threads), but its threads'
CPU times tell what it would take on idle cores: the main thread's time plus
the busiest worker's, when the workers run at once. The times come from
/proc/PID/task/TID/schedstat (nanoseconds on a CPU), sampled until each
thread ends, so a thread's last few milliseconds may be missing.

Usage: bench/thread_cpu.py COMMAND...   (prints one line to stdout after the
command's own output; exits with the command's status)"""
import os
import subprocess
import sys
import time


def sample(pid, seen):
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                seen[int(tid)] = int(f.read().split()[0])
        except (FileNotFoundError, ProcessLookupError, ValueError):
            pass


def main():
    proc = subprocess.Popen(sys.argv[1:])
    seen = {}
    while proc.poll() is None:
        sample(proc.pid, seen)
        time.sleep(0.002)
    main_cpu = seen.pop(proc.pid, 0) / 1e9
    workers = sorted((ns / 1e9 for ns in seen.values()), reverse=True)
    busiest = workers[0] if workers else 0.0
    total = main_cpu + sum(workers)
    print(f"threads: main {main_cpu:.2f} s, workers "
          + ", ".join(f"{w:.2f}" for w in workers)
          + f" s; total {total:.2f} s; on idle cores about {main_cpu + busiest:.2f} s")
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
