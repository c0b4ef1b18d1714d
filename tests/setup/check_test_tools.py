#!/usr/bin/env python3
"""Do the tests, tests/setup/test-tools.txt and scripts/bootstrap.sh agree?

A green run on a machine that happens to have a tool installed hides a
set-up that would fail on a fresh one. This check fails when
  - a lit RUN line calls a program test-tools.txt does not list,
  - test-tools.txt names a package that scripts/bootstrap.sh neither installs
    nor pulls in (Depends, recursively) and that is not essential to Debian,
  - a listed program, found on this machine, belongs to another package.
Usage: check_test_tools.py PROJECT_ROOT
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

# Run by lit's internal shell itself, or shell syntax.
LIT_BUILTINS = {"cd", "export", "echo", "mkdir", "rm", ":", "diff", "not", "env", "cat", "true",
                "false", "exit", "ulimit", "umask"}
# The project's own programs, through lit substitutions.
OWN_SUBSTITUTIONS = re.compile(r"^%[\w-]+$")
SUBSTITUTED_TOOLS = {"%llvm-mc": "llvm-mc", "%clang": "clang", "%uncached-clang": "clang",
                     "%python": "python3"}


def bootstrap_packages(root):
    text = (root / "scripts" / "bootstrap.sh").read_text()
    block = re.search(r"packages=\((.*?)\)", text, re.S)
    if not block:
        sys.exit("check_test_tools: no packages=( ... ) list in scripts/bootstrap.sh")
    return set(re.findall(r"[a-z0-9][a-z0-9.+-]+", re.sub(r"#.*", "", block.group(1))))


def test_tools(root):
    tools = {}
    for line in (root / "tests" / "setup" / "test-tools.txt").read_text().splitlines():
        words = line.split("#", 1)[0].split()
        if len(words) == 2:
            tools[words[0]] = words[1]
    return tools


def run_lines(path):
    """The test's RUN commands, continuation lines joined, %{name} expanded."""
    defines, commands, pending = {}, [], ""
    for line in path.read_text(errors="replace").splitlines():
        m = re.search(r"\b(RUN|DEFINE|REDEFINE):(.*)$", line)
        if not m:
            continue
        kind, body = m.group(1), m.group(2).strip()
        pending += " " + body
        if pending.endswith("\\"):
            pending = pending[:-1]
            continue
        text, pending = pending.strip(), ""
        if kind == "RUN":
            commands.append(text)
        else:
            name, _, value = text.partition("=")
            defines[name.strip()] = value.strip()
    for _ in range(8):  # definitions may use definitions
        commands = [re.sub(r"%\{[\w.-]+\}", lambda d: defines.get(d.group(0), d.group(0)), c)
                    for c in commands]
    return commands


def called_programs(command):
    """The first word of each pipeline stage, quotes honoured."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars="|&;<>")
    lexer.whitespace_split = True
    try:
        tokens = list(lexer)
    except ValueError:  # an unbalanced quote: take the words as they are
        tokens = command.split()
    stage = []
    for token in tokens + [";"]:
        if token not in ("|", "||", "&&", ";", "&"):
            stage.append(token)
            continue
        words = [w for w in stage if w not in ("(", ")")]
        while words and (words[0] in ("not", "env") or re.match(r"^[A-Za-z_]\w*=", words[0])
                         or (words[0].startswith("-") and words[0] != "-")):
            words = words[1:]
        if words:
            yield words[0]
        stage = []


def installed_packages():
    """Every installed package: name -> (its Depends and Pre-Depends, essential)."""
    out = subprocess.run(["dpkg-query", "-W", "-f=${Package}\t${Depends},${Pre-Depends}\t${Essential}\n"],
                         capture_output=True, text=True).stdout
    packages = {}
    for line in out.splitlines():
        name, depends, essential = (line.split("\t") + ["", ""])[:3]
        names = [d.strip().split(" ")[0].split(":")[0] for d in re.split(r"[,|]", depends)]
        packages[name] = ([n for n in names if n], essential == "yes")
    return packages


def depends_closure(packages, installed):
    """The packages \\p packages pull in, through installed Depends."""
    seen, todo = set(), list(packages)
    while todo:
        p = todo.pop()
        if p not in seen:
            seen.add(p)
            todo.extend(installed.get(p, ([], False))[0])
    return seen


def owning_packages(paths):
    """path -> the package that installed it, with one dpkg call."""
    candidates = sorted(set(paths) | {os.path.realpath(p) for p in paths})
    out = subprocess.run(["dpkg", "-S"] + candidates, capture_output=True, text=True).stdout
    owner = {}
    for line in out.splitlines():
        package, _, path = line.partition(": ")
        owner[path.strip()] = package.split(",")[0].strip()
    return {p: owner.get(p) or owner.get(os.path.realpath(p)) for p in paths}


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    listed, tools = bootstrap_packages(root), test_tools(root)
    problems = []

    for test in sorted((root / "tests" / "lit").rglob("*")):
        if not test.is_file() or "Inputs" in test.parts or test.suffix not in (".test", ".s", ".stir"):
            continue
        for command in run_lines(test):
            for program in called_programs(command):
                program = SUBSTITUTED_TOOLS.get(program, program)
                if (program in LIT_BUILTINS or OWN_SUBSTITUTIONS.match(program)
                        or program.startswith(("%", "$", "<", ">", "'", '"'))):
                    continue
                if os.path.basename(program) not in tools:
                    problems.append("%s runs '%s', which tests/setup/test-tools.txt does not "
                                    "list" % (test.relative_to(root), program))

    installed = installed_packages()
    pulled_in = depends_closure(listed, installed)
    llvm_bin = "/usr/lib/llvm-22/bin"
    path = os.pathsep.join([llvm_bin, os.environ.get("PATH", "")])
    found = {tool: shutil.which(tool, path=path) for tool in tools}
    owners = owning_packages([f for f in found.values() if f])
    for tool, package in sorted(tools.items()):
        if package not in pulled_in and not installed.get(package, ([], False))[1]:
            problems.append("%s comes from %s, which scripts/bootstrap.sh does not install"
                            % (tool, package))
        owner = owners.get(found[tool]) if found[tool] else None
        if owner and owner != package:
            problems.append("%s (%s) belongs to %s, not %s as tests/setup/test-tools.txt says"
                            % (tool, found[tool], owner, package))

    for p in dict.fromkeys(problems):
        print("error: " + p)
    print("%d tools, %d packages in the set-up: %s" %
          (len(tools), len(listed), "drift found" if problems else "they agree"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
