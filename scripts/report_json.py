"""Reading a rope-kv-bench report (docs/report.md) from the scripts beside this file, with the
one-line refusal they all share: `PROG: PATH: why` on stderr and exit 2. A gzip- or
xz-compressed report (how large ones are committed under results/) is read as it is, recognised
by its magic bytes."""
import gzip
import json
import lzma
import sys
import zlib

XZ_MAGIC = b"\xfd7zXZ\x00"


def fail_input(prog, path, why):
    print(f"{prog}: {path}: {why}", file=sys.stderr)
    sys.exit(2)


def load_json(path):
    """The JSON of a plain, gzip- or xz-compressed file. Raises OSError (unreadable) or ValueError
    (a broken gzip or xz stream, or not JSON), for scripts that report errors in their own words."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (gzip.BadGzipFile, EOFError, zlib.error) as e:
            raise ValueError(f"not a readable gzip file ({e})") from e
    elif data[:6] == XZ_MAGIC:
        try:
            data = lzma.decompress(data)
        except (lzma.LZMAError, EOFError) as e:
            raise ValueError(f"not a readable xz file ({e})") from e
    try:
        return json.loads(data.decode("utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ValueError(f"not JSON ({e})") from e


def load_json_or_fail(prog, path):
    """load_json, refusing an unreadable file or one that is not JSON with fail_input's line."""
    try:
        return load_json(path)
    except OSError as e:
        fail_input(prog, path, e.strerror or str(e))
    except ValueError as e:
        fail_input(prog, path, str(e))


def load_report(prog, path):
    """The report as a dict with a `cases` list; refuses unreadable files, non-JSON and anything
    that is not a rope-kv-bench report."""
    report = load_json_or_fail(prog, path)
    if not isinstance(report, dict) or report.get("tool") != "rope-kv-bench":
        fail_input(prog, path, "not a rope-kv-bench report")
    if not isinstance(report.get("cases"), list):
        fail_input(prog, path, "no cases array")
    for case in report["cases"]:
        if not isinstance(case, dict):
            fail_input(prog, path, "a case is not an object")
    return report
