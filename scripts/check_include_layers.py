#!/usr/bin/env python3
"""Checks that every folder of src/ includes only headers of the folders it may use.

The allowed directions come from the table src/CMakeLists.txt writes (`folder: dep dep ...`, one
line per folder); a folder may include its own headers, those of its dependencies and, through
them, theirs. Quoted includes name a folder ("plan/case_spec.h") or a root library's header
("rope_kv.h" from kernels/, "golden.h" from reference/). Any other quoted include, or one of a
folder above, is reported with file, line and the rule it breaks; exit 1 when any is found.

Usage: check_include_layers.py LAYER_TABLE REPO_ROOT
       check_include_layers.py --self-test LAYER_TABLE REPO_ROOT
The self-test copies src/ to a temporary folder, plants an upward include (stats/ including a
report header) and expects the check to fail on exactly that line.
"""
import os
import re
import shutil
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
ROOT_LIBRARIES = ("kernels", "reference")


def read_table(path):
    table = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            folder, _, deps = line.partition(":")
            table[folder.strip()] = deps.split()
    return table


def closure(table, folder):
    seen, todo = set(), [folder]
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        todo.extend(table.get(f, []))
    return seen


def root_headers(repo):
    owner = {}
    for lib in ROOT_LIBRARIES:
        for name in os.listdir(os.path.join(repo, lib)):
            owner[name] = lib
    return owner


def violations(table, repo, src):
    owner = root_headers(repo)
    found = []
    for folder in sorted(os.listdir(src)):
        path = os.path.join(src, folder)
        if not os.path.isdir(path):
            continue
        if folder not in table:
            found.append(f"src/{folder}/: a folder with no entry in src/CMakeLists.txt's rkv_layer list")
            continue
        allowed = closure(table, folder)
        for name in sorted(os.listdir(path)):
            if not name.endswith((".h", ".cuh", ".cpp", ".cu", ".inc")):
                continue
            with open(os.path.join(path, name), encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    header = m.group(1)
                    target = header.split("/")[0] if "/" in header else owner.get(header)
                    where = f"src/{folder}/{name}:{number}"
                    if target is None:
                        found.append(f"{where}: \"{header}\" is neither folder-qualified nor a "
                                     f"header of {' or '.join(ROOT_LIBRARIES)}/")
                    elif target not in allowed:
                        found.append(f"{where}: {folder}/ may not include {target}/ (\"{header}\"); "
                                     f"it may use {', '.join(sorted(allowed - {folder})) or 'nothing'}")
    return found


def self_test(table, repo):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "src")
        shutil.copytree(os.path.join(repo, "src"), src)
        if violations(table, repo, src):
            print("self-test: the unmodified tree already fails", file=sys.stderr)
            return 1
        planted = os.path.join(src, "stats", "stats.h")
        with open(planted, "a", encoding="utf-8") as f:
            f.write('#include "report/report.h"\n')
        found = violations(table, repo, src)
        if len(found) == 1 and "src/stats/stats.h" in found[0] and "report/" in found[0]:
            print(f"self-test: the planted upward include was caught: {found[0]}")
            return 0
        print(f"self-test: expected one violation in src/stats/stats.h, got {found}",
              file=sys.stderr)
        return 1


def main(argv):
    if len(argv) == 4 and argv[1] == "--self-test":
        return self_test(read_table(argv[2]), argv[3])
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[-4], file=sys.stderr)
        return 2
    table, repo = read_table(argv[1]), argv[2]
    found = violations(table, repo, os.path.join(repo, "src"))
    for v in found:
        print(v, file=sys.stderr)
    if found:
        return 1
    print(f"{len(table)} folders of src/ include only downward")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
