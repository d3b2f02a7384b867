#!/usr/bin/env python3
"""Reads `rope-kv-bench validate --dump` folders through their meta.json only, and prints a summary.

Every array named in meta.json is loaded with numpy and checked against what meta.json says about
it (file, NumPy type, shape, byte count); every view (query/key/value of qkv, key/value of the
caches, cos/sin of the table) is taken with the offset and strides meta.json gives and checked to
lie inside its array. Nothing is recomputed: the numbers printed are the stored values (bf16 shown
as the float32 it widens to exactly, fp8 as its stored byte codes).

usage: read_dump.py [--json] PATH...   PATH: a case folder (holding meta.json) or a folder of them
exit:  0 every array matches meta.json; 1 a mismatch (named on stderr); 2 bad usage or no dump
"""
import json
import os
import sys

import numpy as np


class DumpError(Exception):
    pass


def case_folders(path):
    if os.path.isfile(os.path.join(path, "meta.json")):
        return [path]
    if not os.path.isdir(path):
        raise DumpError(f"{path}: not a folder")
    found = sorted(os.path.join(path, d) for d in os.listdir(path)
                   if os.path.isfile(os.path.join(path, d, "meta.json")))
    if not found:
        raise DumpError(f"{path}: no meta.json in it or in any folder below it")
    return found


def strided_view(flat, v, where):
    """The view meta.json describes: element [i, j, ...] is flat[offset + i*s0 + j*s1 + ...]."""
    shape, strides, offset = v["shape"], v["strides"], v["offset"]
    if len(shape) != len(strides):
        raise DumpError(f"{where}: shape and strides differ in length")
    if any(n <= 0 for n in shape):
        return np.empty(shape, dtype=flat.dtype)
    last = offset + sum((n - 1) * s for n, s in zip(shape, strides))
    if offset < 0 or last >= flat.size:
        raise DumpError(f"{where}: reaches element {last} of an array of {flat.size}")
    base = flat[offset:]
    return np.lib.stride_tricks.as_strided(
        base, shape=shape, strides=[s * flat.itemsize for s in strides], writeable=False)


def as_numbers(a, dtype):
    """Stored values as numbers a person reads: bf16 widened to float32 (exact), the rest as is."""
    if dtype == "bf16":
        return (a.astype(np.uint32) << 16).view(np.float32)
    return a


def read_case(folder):
    with open(os.path.join(folder, "meta.json")) as f:
        meta = json.load(f)
    if meta.get("format") != "rope-kv-bench case dump":
        raise DumpError(f"{folder}/meta.json: not a rope-kv-bench case dump")
    out = {"folder": folder, "case_id": meta["case_id"], "tool_version": meta["tool_version"],
           "disposition": meta["validation"]["disposition"],
           "golden_tokens": len(meta["golden_tokens"]["tokens"]),
           "golden_all": meta["golden_tokens"]["all"], "arrays": {}}
    for name, a in sorted(meta["arrays"].items()):
        where = f"{folder}: {name}"
        arr = np.load(os.path.join(folder, a["file"]), allow_pickle=False)
        if arr.dtype != np.dtype(a["npy_descr"]):
            raise DumpError(f"{where}: stored as {arr.dtype}, meta.json says {a['npy_descr']}")
        if np.dtype(a["stored_as"]) != arr.dtype:
            raise DumpError(f"{where}: stored_as {a['stored_as']} is not {arr.dtype}")
        if list(arr.shape) != a["shape"]:
            raise DumpError(f"{where}: shape {list(arr.shape)}, meta.json says {a['shape']}")
        if arr.nbytes != a["bytes"]:
            raise DumpError(f"{where}: {arr.nbytes} bytes, meta.json says {a['bytes']}")
        entry = {"dtype": a["dtype"], "npy_descr": a["npy_descr"], "shape": a["shape"],
                 "byte_sum": int(arr.view(np.uint8).sum(dtype=np.uint64)), "views": {}}
        flat = arr.reshape(-1)
        whole = as_numbers(flat, a["dtype"])
        whole = whole[np.isfinite(whole)] if whole.dtype.kind == "f" else whole
        entry["min"] = float(whole.min()) if whole.size else None
        entry["max"] = float(whole.max()) if whole.size else None
        for vname, v in sorted(a.get("views", {}).items()):
            view = strided_view(flat, v, f"{where}.{vname}")
            last = view[tuple(n - 1 for n in v["shape"])] if view.size else None
            values = as_numbers(view, a["dtype"])
            # Sentinel-filled caches hold arbitrary bits: NaN and infinity are counted, not shown.
            finite = values[np.isfinite(values)] if values.dtype.kind == "f" else values
            entry["views"][vname] = {
                "shape": v["shape"],
                "last_bits": None if last is None else int(last.view(
                    np.dtype(f"u{flat.itemsize}")) if flat.itemsize > 1 else last),
                "min": float(finite.min()) if finite.size else None,
                "max": float(finite.max()) if finite.size else None,
                "non_finite": int(values.size - finite.size),
            }
        out["arrays"][name] = entry
    return out


def print_case(c):
    print(f"{c['case_id']}  ({c['disposition']}, tool {c['tool_version']}, golden on "
          f"{'all ' if c['golden_all'] else ''}{c['golden_tokens']} tokens)")
    print(f"  {c['folder']}")
    for name, a in c["arrays"].items():
        rng = "" if a["views"] or a["min"] is None else f"values {a['min']:.6g} .. {a['max']:.6g}"
        print(f"  {name:<20} {a['dtype']:<9} {a['npy_descr']:<4} {str(a['shape']):<22} {rng}".rstrip())
        for vname, v in a["views"].items():
            rng = "" if v["min"] is None else f"  values {v['min']:.6g} .. {v['max']:.6g}"
            if v["non_finite"]:
                rng += f" ({v['non_finite']} NaN/inf)"
            print(f"      .{vname:<8} {str(v['shape']):<26}{rng}")


def main(argv):
    as_json = "--json" in argv
    paths = [a for a in argv if a != "--json"]
    if not paths or any(p.startswith("-") for p in paths):
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 2
    try:
        folders = [f for p in paths for f in case_folders(p)]
    except DumpError as e:
        print(f"read_dump: {e}", file=sys.stderr)
        return 2
    cases = []
    try:
        for f in folders:
            cases.append(read_case(f))
    except (DumpError, KeyError, OSError, ValueError) as e:
        print(f"read_dump: {e}", file=sys.stderr)
        return 1
    if as_json:
        json.dump(cases, sys.stdout, indent=1, allow_nan=False)
        print()
    else:
        for c in cases:
            print_case(c)
        print(f"{len(cases)} case(s), every array as meta.json describes it")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
