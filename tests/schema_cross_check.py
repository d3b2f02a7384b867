#!/usr/bin/env python3
"""The schema and the binary's reader refuse the same reports.

Walks docs/report-schema.json alongside each given report and plants one violation per
constraint met on the way (a required key removed, an enum or const broken, a minimum or maximum
crossed, a pattern or type broken, a bad tag key), checks that jsonschema refuses the planted
report, and that `rope-kv-bench report` refuses it with exit 4 and one line on stderr.

Usage: schema_cross_check.py ROPE_KV_BENCH SCHEMA REPORT... (REPORT: a v1 and a v2 report)
"""
import copy
import json
import pathlib
import subprocess
import sys
import tempfile

import jsonschema

WRONG_TYPES = [{"x": 1}, ["x"], "text", 12345, 1.5, True, None]


def resolve(schema, root):
    while "$ref" in schema:
        node = root
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[part]
        schema = {**node, **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema


def set_at(doc, path, value):
    doc = copy.deepcopy(doc)
    node = doc
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value
    return doc


def delete_at(doc, path):
    doc = copy.deepcopy(doc)
    node = doc
    for p in path[:-1]:
        node = node[p]
    del node[path[-1]]
    return doc


def mutations(doc, instance, schema, root, validator, path):
    """Yields (description, mutated document)."""
    schema = resolve(schema, root)
    where = "/".join(map(str, path)) or "(top)"
    if "anyOf" in schema:
        for branch in schema["anyOf"]:
            if validator.evolve(schema=branch).is_valid(instance):
                yield from mutations(doc, instance, branch, root, validator, path)
                break
        if path:
            yield f"{where}: anyOf", set_at(doc, path, {"not": "any branch"})
    if "if" in schema and validator.evolve(schema=schema["if"]).is_valid(instance):
        yield from mutations(doc, instance, schema.get("then", {}), root, validator, path)
    if path and "const" in schema:
        yield f"{where}: const", set_at(doc, path, "not-the-constant")
    if path and "enum" in schema:
        yield f"{where}: enum", set_at(doc, path, "not-in-the-enum")
    if path and "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        for value in WRONG_TYPES:
            if not validator.evolve(schema={"type": types}).is_valid(value):
                yield f"{where}: type", set_at(doc, path, value)
                break
    if path and "minimum" in schema:
        yield f"{where}: minimum", set_at(doc, path, schema["minimum"] - 1)
    if path and "exclusiveMinimum" in schema:
        yield f"{where}: exclusiveMinimum", set_at(doc, path, schema["exclusiveMinimum"])
    if path and "maximum" in schema:
        yield f"{where}: maximum", set_at(doc, path, schema["maximum"] + 1)
    if path and "pattern" in schema:
        yield f"{where}: pattern", set_at(doc, path, "no\u0001match")
    if isinstance(instance, dict):
        for key in schema.get("required", []):
            if key in instance:
                yield f"{where}: required {key}", delete_at(doc, path + [key])
        if "propertyNames" in schema:
            yield f"{where}: propertyNames", set_at(doc, path + ["bad key!"], "x")
        for key, sub in schema.get("properties", {}).items():
            if key in instance:
                yield from mutations(doc, instance[key], sub, root, validator, path + [key])
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            for key in instance:
                if key not in schema.get("properties", {}):
                    yield from mutations(doc, instance[key], extra, root, validator, path + [key])
                    break
    if isinstance(instance, list) and isinstance(schema.get("items"), dict) and instance:
        # Every element of short arrays, the first of long ones (cases hold different shapes).
        for i in range(min(len(instance), 3)):
            yield from mutations(doc, instance[i], schema["items"], root, validator, path + [i])


def main(argv):
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    binary, root = argv[1], json.loads(pathlib.Path(argv[2]).read_text())
    validator = jsonschema.Draft202012Validator(root)
    tried = disagreements = 0
    with tempfile.TemporaryDirectory() as tmp:
        for report in argv[3:]:
            doc = json.loads(pathlib.Path(report).read_text())
            if not validator.is_valid(doc):
                print(f"{report}: not valid to begin with")
                return 1
            for what, planted in mutations(doc, doc, root, root, validator, []):
                if validator.is_valid(planted):
                    continue  # not a violation after all (e.g. an alternative branch matched)
                tried += 1
                path = pathlib.Path(tmp) / "planted.json"
                path.write_text(json.dumps(planted))
                run = subprocess.run([binary, "report", str(path), "--format", "csv"],
                                     capture_output=True, text=True)
                lines = run.stderr.strip().splitlines()
                if run.returncode != 4 or len(lines) != 1:
                    disagreements += 1
                    print(f"{report}: {what}: schema refuses, rope-kv-bench exit "
                          f"{run.returncode}: {run.stderr.strip()[:200]}")
    print(f"schema_cross_check: {tried} planted violations, {disagreements} accepted by the binary")
    return 1 if disagreements or tried == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
