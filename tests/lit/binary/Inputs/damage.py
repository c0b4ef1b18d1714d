#!/usr/bin/env python3
"""Writes damaged copies of an AMDGPU code object for the bad-binary tests.

  damage.py machine IN OUT N          e_machine set to N (62: x86-64)
  damage.py abi-version IN OUT N      EI_ABIVERSION set to N
  damage.py text-offset IN OUT        .text's sh_offset pointed past the file's end
  damage.py kd-entry IN OUT KERNEL    KERNEL.kd's code entry pointed 1 MiB away
  damage.py bundle-offset IN OUT      a bundle whose one entry starts past its end
  damage.py symbol-name IN OUT NAME [BYTE]  the symbol NAME's second byte set to BYTE
                                      (default 0x99) in .strtab
  damage.py section-name IN OUT NAME BYTE  the section NAME's second byte set to BYTE
                                      in .shstrtab
  damage.py note-string IN OUT OLD NEW  the string OLD (a MessagePack fixstr) in the
                                      metadata note replaced by NEW (hex escapes such as \\x3b), of its length
  damage.py sgpr-granule IN OUT KERNEL N  KERNEL.kd's COMPUTE_PGM_RSRC1 SGPR granule
                                      (bits 6-9) set to N, as ROCm 5.3 wrote it on gfx10+
"""
import struct
import sys


def sections(data):
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [(shoff + i * shentsize,) + struct.unpack_from("<IIQQQQI", data, shoff + i * shentsize)
               for i in range(shnum)]
    strtab = headers[shstrndx]

    def cstr(off):
        return data[off:data.index(b"\0", off)].decode()

    return {cstr(strtab[5] + h[1]): h for h in headers}, cstr


def descriptor(data, kernel):
    """The file offset of KERNEL.kd."""
    secs, cstr = sections(data)
    symtab, strtab, rodata = secs[".symtab"], secs[".strtab"], secs[".rodata"]
    for off in range(symtab[5], symtab[5] + symtab[6], 24):
        name, _, _, _, value, _ = struct.unpack_from("<IBBHQQ", data, off)
        if name and cstr(strtab[5] + name) == kernel + ".kd":
            return rodata[5] + value - rodata[4]
    sys.exit("no descriptor " + kernel + ".kd")


def main():
    cmd, src, dst = sys.argv[1:4]
    data = bytearray(open(src, "rb").read())
    if cmd == "machine":
        struct.pack_into("<H", data, 0x12, int(sys.argv[4]))
    elif cmd == "abi-version":
        data[8] = int(sys.argv[4])
    elif cmd == "text-offset":
        header = sections(data)[0][".text"][0]
        struct.pack_into("<Q", data, header + 0x18, len(data) + 0x1000)
    elif cmd == "kd-entry":
        struct.pack_into("<q", data, descriptor(data, sys.argv[4]) + 16, 1 << 20)
    elif cmd == "sgpr-granule":
        at = descriptor(data, sys.argv[4]) + 48
        rsrc1, = struct.unpack_from("<I", data, at)
        struct.pack_into("<I", data, at, (rsrc1 & ~(0xF << 6)) | (int(sys.argv[5]) << 6))
    elif cmd == "symbol-name":
        strtab = sections(data)[0][".strtab"]
        at = data.index(b"\0" + sys.argv[4].encode() + b"\0", strtab[5], strtab[5] + strtab[6])
        data[at + 2] = int(sys.argv[5], 0) if len(sys.argv) > 5 else 0x99
    elif cmd == "section-name":
        shstrtab = sections(data)[0][".shstrtab"]
        at = data.index(b"\0" + sys.argv[4].encode() + b"\0", shstrtab[5], shstrtab[5] + shstrtab[6])
        data[at + 2] = int(sys.argv[5], 0)
    elif cmd == "note-string":
        # NEW may spell bytes as hex escapes (a ';' in a RUN line reads as a command end).
        old, new = sys.argv[4].encode(), sys.argv[5].encode().decode("unicode_escape").encode()
        assert len(old) == len(new) < 32
        note = sections(data)[0][".note"]
        at = data.index(bytes([0xA0 | len(old)]) + old, note[5], note[5] + note[6])
        data[at + 1:at + 1 + len(new)] = new
    elif cmd == "bundle-offset":
        entry_id = b"hipv4-amdgcn-amd-amdhsa--gfx942"
        header = b"__CLANG_OFFLOAD_BUNDLE__" + struct.pack("<Q", 1)
        header += struct.pack("<QQQ", 0x100000, len(data), len(entry_id)) + entry_id
        data = bytearray(header + bytes(data))
    else:
        sys.exit("unknown command " + cmd)
    open(dst, "wb").write(bytes(data))


if __name__ == "__main__":
    main()
