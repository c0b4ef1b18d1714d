#!/usr/bin/env python3
"""Runs FileCheck tests written for the reference's `stinkytofu-check` driver
against a StinkyTofu binary.

Such a test holds `# RUN:` lines without a FileCheck pipe: the driver runs each
command (`%stinkytofu-opt` the tool, `%s` the test file) and matches its output
against the file's CHECK lines. This script does the same with LLVM's FileCheck
and prints one line per test: PASS, or FAIL with the class of the failure
(`refused`: the tool exited non-zero, its first error line follows; `checks`:
the output did not match, FileCheck's first error follows). A test marked
`XFAIL:` is XFAIL when it fails and XPASS when it passes.

    bench/reference-filecheck.py --tool build/bin/stinkytofu-opt DIR_OR_FILES...

--tool-args adds options after the tool, such as --strip-comments (the
reference's tool drops comments by default, so a `.s` test's own CHECK lines
would otherwise match themselves in StinkyTofu's lossless output).

Exit status: 0 when every test passes, 1 otherwise.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys

FILECHECK = "/usr/lib/llvm-22/bin/FileCheck"


def run_lines(path):
    """The commands of the test's RUN lines (a trailing backslash continues one)."""
    commands, current = [], ""
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r"\s*(?:#|//|;)\s*RUN:\s?(.*)$", line.rstrip("\n"))
            if not m:
                continue
            text = m.group(1).rstrip()
            if text.endswith("\\"):
                current += text[:-1] + " "
                continue
            commands.append(current + text)
            current = ""
    return commands


def first_error(text):
    for line in text.splitlines():
        if "error" in line.lower():
            return line.strip()
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[0].strip() if lines else ""


def expects_failure(path):
    """Whether the test says `XFAIL:` (the driver then counts a failure as expected)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        return any(re.match(r"\s*(?:#|//|;)\s*XFAIL:", line) for line in f)


def run_test(path, tool, timeout):
    """PASS or FAIL with its reason; XFAIL/XPASS for a test that expects to fail."""
    status, why = run_commands(path, tool, timeout)
    if not expects_failure(path):
        return status, why
    return ("XFAIL", why) if status == "FAIL" else ("XPASS", "")


def run_commands(path, tool, timeout):
    """PASS or FAIL with its reason; \p tool is the command line to substitute."""
    commands = run_lines(path)
    if not commands:
        return "SKIP", "no RUN line"
    for command in commands:
        command = command.replace("%stinkytofu-opt", tool)
        command = command.replace("%s", shlex.quote(path))
        expect_failure = command.lstrip().startswith("not ")
        if expect_failure:
            command = command.lstrip()[4:]
        try:
            proc = subprocess.run(command, shell=True, capture_output=True, text=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            return "FAIL", "timeout"
        output = proc.stdout  # with the test's own `2>&1`, stderr in order
        if (proc.returncode != 0) != expect_failure:
            return "FAIL", "refused: " + first_error(proc.stderr or proc.stdout)
        check = subprocess.run([FILECHECK, path], input=output, capture_output=True,
                               text=True)
        if check.returncode != 0:
            return "FAIL", "checks: " + first_error(check.stderr)
    return "PASS", ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tool", required=True, help="the stinkytofu-opt binary")
    parser.add_argument("--tool-args", default="", help="options added after the tool")
    parser.add_argument("--timeout", type=int, default=120)
    parser.add_argument("inputs", nargs="+", help="test files or directories of them")
    args = parser.parse_args()
    files = []
    for item in args.inputs:
        if os.path.isdir(item):
            files += sorted(os.path.join(item, n) for n in os.listdir(item)
                            if n.endswith((".stir", ".s")))
        else:
            files.append(item)
    counts = {}
    for path in files:
        tool = " ".join([shlex.quote(os.path.abspath(args.tool))] + shlex.split(args.tool_args))
        status, why = run_test(path, tool, args.timeout)
        counts[status] = counts.get(status, 0) + 1
        print(f"{status} {os.path.basename(path)}" + (f"  {why}" if why else ""))
    print(" ".join(f"{k}: {v}" for k, v in sorted(counts.items())), f"of {len(files)}")
    return 0 if counts.get("PASS", 0) + counts.get("XFAIL", 0) == len(files) else 1


if __name__ == "__main__":
    sys.exit(main())
