"""Small file tools for the funcmap lit tests (python3, standard library only).

  helper.py append-only ORIG PATCHED
      PATCHED keeps every byte of ORIG: the ELF header differs at most in
      e_shoff and e_shnum, bytes [64, len(ORIG)) are identical, and PATCHED
      only grows.
  helper.py filter-readelf < readelf-output
      Drops what a funcmap patch is allowed to change in `llvm-readelf -S -l -s`:
      the "There are N section headers" line, the .shstrtab and .sqtt_funcmap
      section lines, and .sqtt_funcmap in the segment mapping.
  helper.py append-nul IN OUT          OUT = IN + b"\\0"
  helper.py truncate IN SIZE OUT       the first SIZE bytes of IN
  helper.py make-ccob IN OUT zlib|zstd VERSION
      A compressed offload bundle ("CCOB") around the uncompressed bundle IN
      (zlib only: python has no zstd).
  helper.py make-bundle OUT ID=FILE...
      An uncompressed offload bundle with one entry per ID=FILE, the ID taken
      as it is (to make hostile entry ids clang-offload-bundler refuses).
  helper.py concat-aligned OUT IN...   the inputs back to back, each padded
      with zeros to a multiple of 4096 bytes (as .hip_fatbin holds bundles).
  helper.py exit-code N -- CMD...      runs CMD; succeeds when it exits with N.
  helper.py vaddrs NM DUMP
      Every kernel/func row of `sqtt-funcmap dump` (file DUMP) has the address
      `llvm-nm --defined-only` (file NM) gives its name; prints
      `OK: K kernel, F function rows at their llvm-nm address, N without one`
      (N: rows without a vaddr), or each mismatch and exits 1.
"""

import hashlib
import os
import re
import struct
import subprocess
import sys
import zlib


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def append_only(orig_path, patched_path):
    orig, patched = read(orig_path), read(patched_path)
    if len(patched) < len(orig):
        sys.exit("patched file is shorter than the original")
    # ELF64 header: e_shoff at 0x28 (8 bytes), e_shnum at 0x3c (2 bytes).
    allowed = set(range(0x28, 0x30)) | set(range(0x3C, 0x3E))
    for i in range(64):
        if orig[i] != patched[i] and i not in allowed:
            sys.exit("ELF header byte 0x%x changed" % i)
    if orig[64:] != patched[64 : len(orig)]:
        first = next(i for i in range(64, len(orig)) if orig[i] != patched[i])
        sys.exit("byte 0x%x of the original changed" % first)


def filter_readelf():
    for line in sys.stdin:
        if "section headers, starting at offset" in line:
            continue
        if "] .shstrtab " in line or "] .sqtt_funcmap " in line:
            continue
        sys.stdout.write(line.replace(" .sqtt_funcmap ", " "))


def make_ccob(in_path, out_path, method, version):
    raw = read(in_path)
    if method != "zlib":
        sys.exit("only zlib can be made here")
    data = zlib.compress(raw, 9)
    digest = struct.unpack("<Q", hashlib.md5(raw).digest()[:8])[0]
    version = int(version)
    if version == 1:
        header = b"CCOB" + struct.pack("<HHIQ", 1, 0, len(raw), digest)
    elif version == 2:
        header = b"CCOB" + struct.pack("<HHIIQ", 2, 0, 24 + len(data), len(raw), digest)
    else:
        header = b"CCOB" + struct.pack("<HHQQQ", 3, 0, 32 + len(data), len(raw), digest)
    write(out_path, header + data)


def make_bundle(out_path, entries):
    magic = b"__CLANG_OFFLOAD_BUNDLE__"
    ids = [e.split("=", 1)[0].encode() for e in entries]
    datas = [read(e.split("=", 1)[1]) for e in entries]
    header = len(magic) + 8 + sum(8 * 3 + len(i) for i in ids)
    offset = (header + 4095) // 4096 * 4096
    table, body = b"", b""
    for i, d in zip(ids, datas):
        table += struct.pack("<QQQ", offset + len(body), len(d), len(i)) + i
        body += d
    out = magic + struct.pack("<Q", len(ids)) + table
    write(out_path, out + b"\0" * (offset - len(out)) + body)


def concat_aligned(out_path, inputs):
    out = b""
    for p in inputs:
        data = read(p)
        out += data + b"\0" * (-len(data) % 4096)
    write(out_path, out)


def exit_code(expected, cmd):
    rc = subprocess.call(cmd)
    if rc != int(expected):
        sys.exit("%s exited with %d, expected %s" % (os.path.basename(cmd[0]), rc, expected))


def vaddrs(nm_path, dump_path):
    symbols = {}
    with open(nm_path) as f:
        for line in f:
            parts = line.split()
            # Function symbols (T/t) win over others of the same name.
            if len(parts) == 3 and (parts[2] not in symbols or parts[1] in "Tt"):
                symbols[parts[2]] = int(parts[0], 16)
    counts = {"kernel": 0, "func": 0}
    without = 0
    errors = []
    with open(dump_path) as f:
        for line in f:
            m = re.match(r"^ *(kernel|func) +\S+ +(0x[0-9a-f]+|-) +(\S+)", line)
            if not m:
                continue
            kind, vaddr, name = m.groups()
            counts[kind] += 1
            if vaddr == "-":
                without += 1
                if name in symbols:
                    errors.append("%s %s: no vaddr, llvm-nm has 0x%x" % (kind, name, symbols[name]))
            elif symbols.get(name) != int(vaddr, 16):
                errors.append("%s %s: vaddr %s, llvm-nm has %s" % (kind, name, vaddr,
                              hex(symbols[name]) if name in symbols else "no symbol"))
    for e in errors:
        print("MISMATCH " + e)
    if errors or not counts["kernel"]:
        sys.exit("the funcmap rows do not match the symbols" if errors else "no K: (kernel) rows in the dump")
    print("OK: %d kernel, %d function rows at their llvm-nm address, %d without one"
          % (counts["kernel"], counts["func"], without))


def main(argv):
    cmd = argv[1]
    if cmd == "append-only":
        append_only(argv[2], argv[3])
    elif cmd == "filter-readelf":
        filter_readelf()
    elif cmd == "append-nul":
        write(argv[3], read(argv[2]) + b"\0")
    elif cmd == "truncate":
        write(argv[4], read(argv[2])[: int(argv[3])])
    elif cmd == "make-ccob":
        make_ccob(argv[2], argv[3], argv[4], argv[5])
    elif cmd == "concat-aligned":
        concat_aligned(argv[2], argv[3:])
    elif cmd == "make-bundle":
        make_bundle(argv[2], argv[3:])
    elif cmd == "exit-code":
        if argv[3] != "--":
            sys.exit("usage: exit-code N -- CMD...")
        exit_code(argv[2], argv[4:])
    elif cmd == "vaddrs":
        vaddrs(argv[2], argv[3])
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main(sys.argv)
