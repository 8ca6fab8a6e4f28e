#!/usr/bin/env python3
"""Records the functions `prose check` runs, for the linker to put together.

Runs a release `prose` under valgrind's callgrind on the shipped examples and
the corpora in ../shared, keeps the functions of the binary itself that ran,
and writes their symbols, the most run first, to `prose.order` beside this
script. build.rs passes that file to the linker
(`--symbol-ordering-file`): the code a check runs then sits in about 2 MB of
pages instead of being spread over the 11 MB of the binary's code, and a run
maps fewer of them (README.md beside this script).

Usage (from the repository root, after `cargo build --release -p prose-cli`):

    python3 crates/prose-cli/layout/record.py [--binary target/release/prose]
    python3 crates/prose-cli/layout/record.py --add [--binary ...]
    python3 crates/prose-cli/layout/record.py --check [--binary ...]

`--check` writes nothing: it says how many of the functions a check runs in
the binary the file lists (a new compiler, new dependencies or new code rename
them, and the file goes stale), and fails below 90%.
`--add` keeps the file and appends the symbols of another build of the same
code whose names differ (the bench profile's: its dev-dependencies change
features, and so the hashes in the names); the linker skips the names a
binary lacks. Needs valgrind and nm (binutils).
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
ORDER = os.path.join(HERE, "prose.order")
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared"))


def inputs():
    """The directories checked while recording: every kind of document."""
    dirs = [
        os.path.join(ROOT, "docs", "examples"),
        os.path.join(ROOT, "editors", "tests", "grammar", "cases"),
        os.environ.get("PROSE_CORPUS", os.path.join(SHARED, "corpus", "openprose-examples")),
        os.environ.get(
            "PROSE_HISTORY_CORPUS", os.path.join(SHARED, "corpus", "openprose-history")
        ),
    ]
    found = [d for d in dirs if os.path.isdir(d)]
    for d in dirs:
        if d not in found:
            print(f"note: {d} not found, not recorded", file=sys.stderr)
    return found


def text_symbols(binary):
    """The defined function symbols of `binary`."""
    out = subprocess.run(
        ["nm", "--defined-only", binary], capture_output=True, text=True, check=True
    ).stdout
    return {p[2] for p in (l.split() for l in out.splitlines()) if len(p) == 3 and p[1] in "tTwW"}


HEADER = re.compile(r"(c?fn|c?ob)=\((\d+)\)(?: (.*))?$")


def self_costs(path, binary, costs):
    """Adds the instructions each function of `binary` ran itself, from a
    callgrind output file (names compressed, as callgrind writes them)."""
    names = {"ob": {}, "fn": {}}
    obj = fn = None
    after_calls = False
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = HEADER.match(line)
            if m:
                kind, ident, name = m.groups()
                table = names[kind.lstrip("c")]
                if name:
                    table[ident] = name
                if kind == "ob":
                    obj = table.get(ident)
                elif kind == "fn":
                    fn = table.get(ident)
                    after_calls = False
                continue
            if line.startswith("calls="):
                after_calls = True  # the next cost line is the call's, not fn's own
                continue
            if line[:1].isdigit() or line[:1] in "+-*":
                if after_calls:
                    after_calls = False
                    continue
                parts = line.split()
                if fn and obj == binary and len(parts) >= 2:
                    # callgrind marks recursion levels with 'N.
                    costs[re.sub(r"'\d+$", "", fn)] += int(parts[1])


def record(binary):
    costs = collections.Counter()
    dirs = inputs()
    runs = [["check", *dirs], ["check", "--format", "json", *dirs]]
    one = tempfile.NamedTemporaryFile("w", suffix=".prose", delete=False)
    one.write('session "hi"\n')
    one.close()
    runs.append(["check", one.name])
    with tempfile.TemporaryDirectory() as tmp:
        for i, args in enumerate(runs):
            out = os.path.join(tmp, f"callgrind.{i}")
            subprocess.run(
                [
                    "valgrind",
                    "--tool=callgrind",
                    "--demangle=no",
                    "--dump-instr=no",
                    f"--callgrind-out-file={out}",
                    binary,
                    *args,
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                check=False,  # `prose check` exits 1 on the examples' errors
            )
            self_costs(out, os.path.realpath(binary), costs)
    os.unlink(one.name)
    return costs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "prose"))
    parser.add_argument("--check", action="store_true", help="only say how much of the check's code the file lists")
    parser.add_argument("--add", action="store_true", help="append to the file, keeping it")
    args = parser.parse_args()
    symbols = text_symbols(args.binary)
    costs = record(args.binary)
    if args.check:
        listed = {l.strip() for l in open(ORDER) if l.strip()}
        ran = [s for s in costs if s in symbols]
        found = sum(1 for s in ran if s in listed)
        print(f"{found} of the {len(ran)} functions a check runs in {args.binary} are in {ORDER}")
        return 0 if found * 10 >= len(ran) * 9 else 1
    ordered = sorted((s for s in costs if s in symbols), key=lambda s: (-costs[s], s))
    if not ordered:
        print("error: no function of the binary ran (is valgrind installed?)", file=sys.stderr)
        return 1
    kept = []
    if args.add:
        kept = [l.strip() for l in open(ORDER) if l.strip()]
        listed = set(kept)
        ordered = [s for s in ordered if s not in listed]
    with open(ORDER, "w") as f:
        for s in kept + ordered:
            f.write(s + "\n")
    print(f"wrote {len(kept) + len(ordered)} symbols to {ORDER} ({len(ordered)} new)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
