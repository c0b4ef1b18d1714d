#!/usr/bin/env python3
"""Does library code build instruction text only to parse it again?

Passes and instrumentation make instructions with InstBuilder::build or an
InstInserter (typed operands); text is parsed only where a user wrote it (a
`.s` or `.stir` file, a pass argument, a rocisa text block). This check
counts, per file of the library code outside the readers, the calls that
turn text into an instruction (`.parse(`, `createInstruction(`,
`Factory.make(`) or hand an operand to the operand parser as text
(`BuildOperand::text(`, `Op::text(`), and fails when a file has more than
tests/setup/text-building-allowed.txt allows (a new site), or fewer (the
allowance is to be lowered with the site gone). `--self-test` shows that
the check refuses a new site.
Usage: check_text_building.py PROJECT_ROOT [--self-test]
"""
import re
import sys
from pathlib import Path

# Library code: passes, analyses, instrumentation, the bridge, the tools.
SCANNED = ["stinkytofu/lib", "asm-instrument/lib", "rocisa-bridge/lib", "tools"]
# The readers of user text and the builder itself.
READERS = ["stinkytofu/lib/asm/", "stinkytofu/lib/stir/", "stinkytofu/lib/mc/"]
SITE = re.compile(r"(\.|->)parse\(|\bcreateInstruction\(|Factory\.make(Branch)?\("
                  r"|\b(BuildOperand|Op)::text\(")


def count_sites(text):
    n = 0
    for line in text.splitlines():
        code = line.split("//", 1)[0]
        n += len(SITE.findall(code))
    return n


def scan(root):
    found = {}
    for top in SCANNED:
        for path in sorted((root / top).rglob("*")):
            if path.suffix not in (".cpp", ".h") or not path.is_file():
                continue
            rel = path.relative_to(root).as_posix()
            if any(rel.startswith(r) for r in READERS):
                continue
            n = count_sites(path.read_text(errors="replace"))
            if n:
                found[rel] = n
    return found


def read_allowed(path):
    allowed = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, count = line.rsplit(None, 1)
            allowed[name] = int(count)
    return allowed


def compare(found, allowed):
    errors = []
    for name in sorted(set(found) | set(allowed)):
        have, may = found.get(name, 0), allowed.get(name, 0)
        if have > may:
            errors.append(f"{name}: {have} site(s) building instruction or operand text to "
                          f"parse it, {may} allowed: build the instruction with typed "
                          "operands (InstBuilder::build, InstInserter, BuildOperand's "
                          "typed kinds)")
        elif have < may:
            errors.append(f"{name}: {have} site(s), {may} allowed: lower the allowance in "
                          "tests/setup/text-building-allowed.txt")
    return errors


def main():
    root = Path(sys.argv[1])
    allowed = read_allowed(root / "tests/setup/text-building-allowed.txt")
    if "--self-test" in sys.argv:
        assert count_sites('B.parse("s_nop " + N); // B.parse(x)') == 1
        assert count_sites("Ctx.Factory.make(S.Text)") == 1
        assert count_sites('{Op::text("s[0:1] scope:SCOPE_SE"), BuildOperand::text(N)}') == 2
        assert count_sites("BuildOperand::special(N); W.text()") == 0
        assert compare({"a.cpp": 2}, {"a.cpp": 1}), "a new site must fail"
        assert compare({"new.cpp": 1}, {}), "a new file must fail"
        assert compare({}, {"gone.cpp": 1}), "an allowance left over must fail"
        assert not compare({"a.cpp": 1}, {"a.cpp": 1})
    errors = compare(scan(root), allowed)
    for e in errors:
        print("error: " + e, file=sys.stderr)
    total = sum(scan(root).values())
    print(f"{total} site(s) parse instruction or operand text in library code (all allowed)"
          if not errors else f"{len(errors)} file(s) differ from the allowance")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
