#!/usr/bin/env python3
"""A result cache for the clang compiles of the test suites.

    clang_cache.py CACHE_DIR CLANG [CLANG ARGS...]

Runs CLANG with the arguments, or replays what an earlier identical compile
wrote. The lit suites of the normal and the sanitizer build compile the same
kernels (tests/kernels) with the same flags about 900 times each; clang is not
what either build tests, so the second build replays the first one's outputs.
ccache would do this but refuses OpenCL.

A compile is replayed only when all of these are the same as when it ran:
  - clang itself (its real path, size and modification time);
  - the arguments, word for word, except the output path (the output's name
    is not in what clang writes for -S or -c), and the working directory when
    an argument is a relative path or debug information is asked for;
  - the contents of every file the compile read: clang's own dependency list
    (-MD), system headers included, and what it leaves out: files named by an
    argument (e.g. bitcode linked in) and the device libraries' folder
    (--rocm-device-lib-path; a GPU compile that names neither it nor
    -nogpulib runs clang, as its libraries could come from anywhere).
Only a compile (-S or -c) to one named output with exit status 0 is stored;
anything else (linking, preprocessing, dependency files of the caller's own,
temporaries kept, a failing compile) runs clang as it is. A replay writes the
output file and clang's stdout and stderr as they were.

CACHE_DIR empty: no cache, clang runs. CLANG_CACHE_LOG=FILE appends one line
per call ("hit", "miss", "pass: REASON") for tests and measurements.
"""

import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

# Options whose outputs are more than the one -o file, that change what the
# call is (no compile, or a report instead of one), or that read files clang's
# dependency list leaves out (profiles, response files).
UNCACHEABLE_WORDS = ("-v", "-###", "--version", "-E", "-fsyntax-only")
UNCACHEABLE_PREFIXES = ("-M", "-save-temps", "-ftime-trace", "-gsplit-dwarf", "--save-stats",
                        "-fsave-optimization-record", "-print", "--print", "-fprofile-",
                        "-fcrash-diagnostics", "@")
# Environment variables clang reads that change its output.
CLANG_ENVIRONMENT = ("CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "OBJC_INCLUDE_PATH",
                     "CCC_OVERRIDE_OPTIONS", "SOURCE_DATE_EPOCH", "ZERO_AR_DATE")
# Options naming the folder clang takes the GPU device libraries from.
DEVICE_LIBRARY_OPTIONS = ("--rocm-device-lib-path=", "--hip-device-lib-path=", "--rocm-path=")
# Entries kept per command line: older ones are of sources edited since.
ENTRIES_PER_COMMAND = 4


def log(event):
    path = os.environ.get("CLANG_CACHE_LOG")
    if path:
        with open(path, "a") as f:
            f.write(event + "\n")


def file_digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def output_path(args):
    """The -o operand's index in args, or None when there is not exactly one."""
    found = [i for i, a in enumerate(args) if a == "-o" or (a.startswith("-o") and len(a) > 2)]
    if len(found) != 1 or (args[found[0]] == "-o" and found[0] + 1 >= len(args)):
        return None
    return found[0]


def why_uncacheable(args):
    if "-S" not in args and "-c" not in args:
        return "not a compile"
    if output_path(args) is None:
        return "no single -o"
    for a in args:
        if a in UNCACHEABLE_WORDS or a.startswith(UNCACHEABLE_PREFIXES):
            return "option " + a
    gpu = any("amdgcn" in a or a.startswith("--offload-arch") for a in args)
    if gpu and "-nogpulib" not in args and not any(a.startswith(DEVICE_LIBRARY_OPTIONS)
                                                   for a in args):
        return "device libraries not named"
    return None


def named_inputs(args):
    """What the arguments name that clang's dependency list leaves out: each
    file by its contents, each device-library folder by its files' sizes and
    modification times (a package upgrade changes both)."""
    inputs = {}
    for a in args:
        value = a.partition("=")[2] if a.startswith("-") else a
        if value and os.path.isfile(value):
            inputs[a] = file_digest(value)
        elif a.startswith(DEVICE_LIBRARY_OPTIONS) and os.path.isdir(value):
            inputs[a] = sorted((e.name, e.stat().st_size, e.stat().st_mtime_ns)
                               for e in os.scandir(value))
    return inputs


def command_key(clang, args, out_index):
    """What identifies the call apart from the contents of what it reads."""
    real = os.path.realpath(clang)
    st = os.stat(real)
    words = list(args)
    if words[out_index] == "-o":
        words[out_index + 1] = "<output>"
    else:
        words[out_index] = "-o<output>"
    # Debug information records the working directory; a relative path is
    # resolved from it.
    needs_cwd = any(a.startswith("-g") for a in words) or any(
        not a.startswith("-") and not os.path.isabs(a) and os.path.exists(a)
        or a.startswith("-I") and len(a) > 2 and not os.path.isabs(a[2:]) for a in words)
    identity = {
        "clang": [real, st.st_size, st.st_mtime_ns],
        "args": words,
        "cwd": os.getcwd() if needs_cwd else None,
        "inputs": named_inputs(words),
        "env": {k: os.environ[k] for k in CLANG_ENVIRONMENT if k in os.environ},
    }
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()


def read_dependencies(depfile):
    """The files a Make-style dependency file names (after the target's colon)."""
    text = Path(depfile).read_text().replace("\\\n", " ")
    _, _, prerequisites = text.partition(": ")
    paths, word = [], ""
    i = 0
    while i < len(prerequisites):
        c = prerequisites[i]
        if c == "\\" and i + 1 < len(prerequisites) and prerequisites[i + 1] == " ":
            word += " "
            i += 2
            continue
        if c.isspace():
            if word:
                paths.append(word)
            word = ""
        else:
            word += c
        i += 1
    if word:
        paths.append(word)
    return sorted({os.path.abspath(p) for p in paths})


def atomic_write(path, data):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def replay(command_dir, output):
    """Writes a stored result whose dependencies match today's files."""
    try:
        names = os.listdir(command_dir)
    except FileNotFoundError:
        return False
    for name in names:
        if not name.endswith(".json"):
            continue
        try:
            entry = json.loads(Path(command_dir, name).read_text())
            if any(file_digest(p) != d for p, d in entry["dependencies"].items()):
                continue
            result = Path(command_dir, entry["result"])
            data = result.read_bytes()
        except (OSError, ValueError, KeyError):
            continue  # an entry being replaced, or a dependency gone: not this one
        if output == "-":
            sys.stdout.buffer.write(data)
        else:
            Path(output).write_bytes(data)
        sys.stdout.buffer.write(entry["stdout"].encode("latin-1"))
        sys.stderr.buffer.write(entry["stderr"].encode("latin-1"))
        os.utime(Path(command_dir, name))
        return True
    return False


def store(command_dir, output, depfile, stdout, stderr):
    os.makedirs(command_dir, exist_ok=True)
    data = stdout if output == "-" else Path(output).read_bytes()
    result = hashlib.sha256(data).hexdigest() + ".out"
    if not os.path.exists(os.path.join(command_dir, result)):
        atomic_write(os.path.join(command_dir, result), data)
    entry = {
        "dependencies": {p: file_digest(p) for p in read_dependencies(depfile)},
        "result": result,
        "stdout": "" if output == "-" else stdout.decode("latin-1"),
        "stderr": stderr.decode("latin-1"),
    }
    text = json.dumps(entry, sort_keys=True).encode()
    atomic_write(os.path.join(command_dir, hashlib.sha256(text).hexdigest() + ".json"), text)
    prune(command_dir)


def prune(command_dir):
    """Keeps the most recently used entries of one command line."""
    def last_use(entry):
        try:
            return entry.stat().st_mtime
        except FileNotFoundError:  # pruned by another compile of the same command
            return 0
    entries = sorted(Path(command_dir).glob("*.json"), key=last_use, reverse=True)
    keep = set()
    for rank, path in enumerate(entries):
        if rank < ENTRIES_PER_COMMAND:
            try:
                keep.add(json.loads(path.read_text())["result"])
            except (OSError, ValueError, KeyError):
                pass
        else:
            path.unlink(missing_ok=True)
    for result in Path(command_dir).glob("*.out"):
        if result.name not in keep:
            result.unlink(missing_ok=True)


def main(argv):
    cache, clang, args = argv[1], argv[2], argv[3:]
    reason = "no cache directory" if not cache else why_uncacheable(args)
    if reason:
        log("pass: " + reason)
        os.execv(clang, [clang] + args)
    out_index = output_path(args)
    output = args[out_index + 1] if args[out_index] == "-o" else args[out_index][2:]
    command_dir = os.path.join(cache, command_key(clang, args, out_index))
    if replay(command_dir, output):
        log("hit")
        return 0
    with tempfile.TemporaryDirectory(prefix="clang-cache-") as work:
        depfile = os.path.join(work, "deps.d")
        run = subprocess.run([clang] + args + ["-MD", "-MF", depfile], capture_output=True)
        sys.stdout.buffer.write(run.stdout)
        sys.stderr.buffer.write(run.stderr)
        if run.returncode == 0 and os.path.exists(depfile):
            store(command_dir, output, depfile, run.stdout, run.stderr)
            log("miss")
        else:
            log("pass: clang failed")
        return run.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv))
