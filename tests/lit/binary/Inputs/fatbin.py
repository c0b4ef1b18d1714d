#!/usr/bin/env python3
"""The .hip_fatbin of a host ELF, for the repack tests.

  fatbin.py bundle HOST OUT    writes the section's first bundle, its own bytes
                               only (clang-offload-bundler reads a compressed
                               bundle to the end of its file: no padding after)
  fatbin.py others OLD NEW     checks that NEW is OLD but for .hip_fatbin: every
                               byte of OLD outside the section's contents and
                               its header's sh_offset/sh_size is the same in
                               NEW; prints "other bytes unchanged" or the first
                               difference (exit 1)
"""
import struct
import sys


def fatbin(data):
    """(section header offset, contents offset, size) of .hip_fatbin."""
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    names = struct.unpack_from("<Q", data, shoff + shstrndx * shentsize + 0x18)[0]
    for i in range(shnum):
        header = shoff + i * shentsize
        name, = struct.unpack_from("<I", data, header)
        if data[names + name:data.index(b"\0", names + name)] == b".hip_fatbin":
            offset, size = struct.unpack_from("<QQ", data, header + 0x18)
            return header, offset, size
    sys.exit("no .hip_fatbin section")


def bundle(data):
    _, offset, size = fatbin(data)
    section = data[offset:offset + size]
    if section.startswith(b"CCOB"):
        total, = struct.unpack_from("<Q", section, 8)
        return section[:total]
    count, = struct.unpack_from("<Q", section, 24)
    end, at = 32, 32
    for _ in range(count):
        entry_offset, entry_size, id_length = struct.unpack_from("<QQQ", section, at)
        at += 24 + id_length
        end = max(end, at, entry_offset + entry_size)
    return section[:end]


def main():
    cmd, first, second = sys.argv[1:4]
    data = open(first, "rb").read()
    if cmd == "bundle":
        open(second, "wb").write(bundle(data))
        return 0
    new = open(second, "rb").read()
    header, offset, size = fatbin(data)
    skip = [(offset, offset + size), (header + 0x18, header + 0x28)]
    for i, byte in enumerate(data):
        if any(a <= i < b for a, b in skip):
            continue
        if i >= len(new) or new[i] != byte:
            print("byte 0x%x differs" % i)
            return 1
    print("other bytes unchanged")
    return 0


if __name__ == "__main__":
    sys.exit(main())
