#!/usr/bin/env python3
"""Which kernels' machine code differs between two cubins, without cuobjdump (this repository's
build machines have nvcc and ptxas but no cuobjdump or nvdisasm).

    scripts/cubin_diff.py A.cubin B.cubin [--match REGEX]

A cubin (`nvcc -cubin`, or scripts/kernel_cubin.sh for the fused kernels' translation unit) is an
ELF file with one `.text.<mangled name>` section a kernel or non-inlined device function; two
kernels are the same when those bytes are (relocations live in other sections, so a kernel that
only moved within the file compares equal). --match keeps the names REGEX finds.

Prints one line a kernel that differs ("differs"), or is in one cubin only ("only in A", "only in
B"), then the counts. It is step 2 of the A/B procedure (docs/methodology.md): kernels a change
should leave alone must come out the same, and a round that claims to launch another build's
kernel must have that kernel's bytes.

Exit 0: every kernel is in both and the same; 1: some differ or are in one only; 2 (one line on
stderr): a file cannot be read or is not a 64-bit little-endian ELF file, or REGEX is invalid.
"""
import argparse
import re
import struct
import sys


def fail(path, why):
    print(f"cubin_diff: {path}: {why}", file=sys.stderr)
    sys.exit(2)


def kernel_code(path):
    """{mangled name: code bytes} of the `.text.*` sections of the ELF file at PATH."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        fail(path, e.strerror or str(e))
    # ELF64 little-endian: e_ident's class 2 and data 1.
    if len(data) < 64 or data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        fail(path, "not a 64-bit little-endian ELF file (a cubin from nvcc -cubin)")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    if shentsize < 64 or shoff + shnum * shentsize > len(data) or shstrndx >= shnum:
        fail(path, "its section table lies outside the file")
    headers = []
    for i in range(shnum):
        name, _, _, _, offset, size = struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)
        headers.append((name, offset, size))
    _, str_offset, str_size = headers[shstrndx]
    names = data[str_offset:str_offset + str_size]
    code = {}
    for name, offset, size in headers:
        end = names.find(b"\0", name)
        section = names[name:end if end >= 0 else len(names)].decode("utf-8", "replace")
        if section.startswith(".text."):
            if offset + size > len(data):
                fail(path, f"section {section} lies outside the file")
            code[section[len(".text."):]] = data[offset:offset + size]
    return code


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a", metavar="A.cubin")
    ap.add_argument("b", metavar="B.cubin")
    ap.add_argument("--match", help="compare only the kernels whose mangled name REGEX finds")
    args = ap.parse_args()
    try:
        match = re.compile(args.match) if args.match else None
    except re.error as e:
        fail("--match", f"not a regular expression: {e}")
    a, b = kernel_code(args.a), kernel_code(args.b)
    same = differ = only_a = only_b = 0
    for name in sorted(set(a) | set(b)):
        if match and not match.search(name):
            continue
        if name not in b:
            only_a += 1
            print(f"only in A  {name}")
        elif name not in a:
            only_b += 1
            print(f"only in B  {name}")
        elif a[name] == b[name]:
            same += 1
        else:
            differ += 1
            print(f"differs    {name}")
    print(f"{same} same, {differ} differ, {only_a} only in A, {only_b} only in B")
    return 0 if differ == only_a == only_b == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
