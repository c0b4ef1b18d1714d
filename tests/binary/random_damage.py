#!/usr/bin/env python3
"""Random damage to binaries: stinkytofu-opt must refuse them, never crash.

Each run copies one of the INPUT files (code objects, bundles, fat binaries),
overwrites 1 to 8 random bytes, cuts a fifth of the copies short at a random
length, and runs `stinkytofu-opt COPY -o /dev/null`: exit status 0 or 1 is
fine, a signal or a stack dump is a crash (the copy is kept in --work).
Prints "seed S: N runs, C crashes" and exits 1 when C > 0.

Usage: random_damage.py --opt PATH --seed S --runs N --work DIR INPUT...
"""
import argparse
import random
import subprocess
import sys
from pathlib import Path


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opt", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--work", required=True)
    parser.add_argument("inputs", nargs="+")
    args = parser.parse_args()
    random.seed(args.seed)
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    originals = [Path(p).read_bytes() for p in args.inputs]
    crashes = 0
    for run in range(args.runs):
        data = bytearray(random.choice(originals))
        for _ in range(random.randint(1, 8)):
            data[random.randrange(len(data))] = random.randrange(256)
        if random.random() < 0.2:
            data = data[:random.randrange(len(data))]
        copy = work / ("damaged-%d-%d" % (args.seed, run))
        copy.write_bytes(bytes(data))
        r = subprocess.run([args.opt, str(copy), "-o", "/dev/null"], capture_output=True,
                           timeout=300)
        err = r.stderr.decode("utf-8", "replace")
        if r.returncode not in (0, 1) or "Stack dump" in err:
            crashes += 1
            print("crash: %s (exit %d)\n%s" % (copy, r.returncode, err[-1000:]))
        else:
            copy.unlink()
    print("seed %d: %d runs, %d crashes" % (args.seed, args.runs, crashes))
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
