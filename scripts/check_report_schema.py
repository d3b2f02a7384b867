#!/usr/bin/env python3
"""Validates rope-kv-bench reports against docs/report-schema.json with a real JSON Schema
validator (Debian's python3-jsonschema, draft 2020-12).

Usage: check_report_schema.py SCHEMA PATH...   (a PATH that is a folder is searched for *.json,
                                                *.json.gz and *.json.xz, read unpacked)

A `rope-kv-bench floor` report (command "floor") is checked against floor-report-schema.json
beside SCHEMA instead, with SCHEMA's $defs for the device and run blocks it shares.

Every *.json (or *.json.gz, *.json.xz) found is a report unless it is Google Benchmark output (top-level "context" and
"benchmarks"), GoogleTest output (top-level "testsuites"), a `compare --json` verdict (tool
"rope-kv-bench compare") or scripts/ncu_vs_tool.sh's table (top-level "rows" and no "cases");
anything else that fails the schema, or is not JSON at all, fails the check. Exit 0 when all pass, 1 when one fails, 2 when the
validator is missing or nothing was found.
"""
import gzip
import json
import lzma
import pathlib
import sys


def is_other_tool_output(doc):
    return isinstance(doc, dict) and (
        ("context" in doc and "benchmarks" in doc) or "testsuites" in doc
        # Our own outputs that are not reports: their shapes are named exactly, so a report that
        # lost a key is still checked.
        or doc.get("tool") == "rope-kv-bench compare"
        or (set(doc) == {"device", "git_revision", "rows"}))


def floor_schema_validator(jsonschema, path, report_schema):
    """The floor schema with the bench schema's $defs in place of its own open placeholders
    (device, run): whatever those blocks refer to comes along; the floor schema's own
    definitions (copy_kernel) stay."""
    floor = json.loads(path.read_text())
    floor["$defs"] = {**floor.get("$defs", {}), **report_schema["$defs"]}
    jsonschema.Draft202012Validator.check_schema(floor)
    return jsonschema.Draft202012Validator(floor)


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        import jsonschema
    except ImportError:
        print(f"check_report_schema: {sys.executable} has no jsonschema module; install Debian's "
              "python3-jsonschema (scripts/install-deps.sh)", file=sys.stderr)
        return 2
    try:
        schema = json.loads(pathlib.Path(argv[1]).read_text())
        jsonschema.Draft202012Validator.check_schema(schema)
    except (OSError, ValueError, jsonschema.exceptions.SchemaError) as e:
        # The first argument is the schema; a report given there by mistake lands here too.
        print(f"check_report_schema: {argv[1]} is not a readable JSON Schema: "
              f"{str(e).splitlines()[0][:200]}", file=sys.stderr)
        return 2
    validator = jsonschema.Draft202012Validator(schema)
    floor_validator = None
    floor_path = pathlib.Path(argv[1]).with_name("floor-report-schema.json")

    files = []
    for arg in argv[2:]:
        p = pathlib.Path(arg)
        files += (sorted([*p.rglob("*.json"), *p.rglob("*.json.gz"), *p.rglob("*.json.xz")])
                  if p.is_dir() else [p])
    checked, failed = 0, 0
    for f in files:
        try:
            unpack = {".gz": gzip.decompress, ".xz": lzma.decompress}.get(f.suffix, bytes)
            doc = json.loads(unpack(f.read_bytes()))
        except (OSError, ValueError, EOFError, lzma.LZMAError) as e:
            print(f"{f}: not readable JSON: {e}")
            failed += 1
            continue
        if is_other_tool_output(doc):
            continue
        checked += 1
        use = validator
        if isinstance(doc, dict) and doc.get("command") == "floor":
            if floor_validator is None:
                try:
                    floor_validator = floor_schema_validator(jsonschema, floor_path, schema)
                except (OSError, ValueError, jsonschema.exceptions.SchemaError) as e:
                    print(f"check_report_schema: {floor_path} is not a readable JSON Schema: "
                          f"{str(e).splitlines()[0][:200]}", file=sys.stderr)
                    return 2
            use = floor_validator
        errors = sorted(use.iter_errors(doc), key=lambda e: list(e.absolute_path))
        for e in errors[:5]:
            where = "/".join(str(p) for p in e.absolute_path) or "(top level)"
            print(f"{f}: {where}: {e.message[:300]}")
        failed += bool(errors)
    print(f"check_report_schema: {checked} reports checked, {failed} failed")
    if checked == 0:
        print("check_report_schema: no report found", file=sys.stderr)
        return 2
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
