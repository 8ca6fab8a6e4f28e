#!/usr/bin/env python3
"""Records the functions `prose check` runs, for the linker to put together.

Runs a release `prose` under valgrind's callgrind on the shipped examples and
the corpora in ../shared, then `prose lsp` through an editing session (every
document opened, a long program typed in, the editor's requests), keeps the
functions of the binary itself that ran, and writes their symbols to
`prose.order` beside this script: the check's first, in tiers (a check of one
line, then of the corpora, then the rest; each the most run first), then those
only the language server ran. build.rs passes that file to the linker
(`--symbol-ordering-file`): the code a check runs then sits in about 2 MB of
pages instead of being spread over the 11 MB of the binary's code, and a run
maps fewer of them (README.md beside this script).

Usage (from the repository root, after `cargo build --release -p prose-cli -p prose-lsp`):

    python3 crates/prose-cli/layout/record.py [--binary target/release/prose]
    python3 crates/prose-cli/layout/record.py --add [--binary ...]
    python3 crates/prose-cli/layout/record.py --check [--binary ...]

A binary built for musl (`target/x86_64-unknown-linux-musl/release/prose`)
reads and writes the musl build's lists, `prose.musl.order` and
`prose.musl.data` (no `.data.rel.ro` in the latter), which prose-build
hands the linker in such a build.

`--check` writes nothing: it says how many of the functions a check runs, and
of those only the server runs, in the binary the file lists (a new compiler,
new dependencies or new code rename them, and the file goes stale), and fails
below 90% of either.
`--add` keeps the file and appends the symbols of another build of the same
code whose names differ (the bench profile's: its dev-dependencies change
features, and so the hashes in the names; `prose-lsp` built alone, whose
server session alone is recorded); the linker skips the names a binary lacks.

The same runs of the check, under valgrind's lackey, give `prose.data`: the
input sections of read-only data the check reads (data.py), which prose-build
hands to lld in a linker script. `--check` and `--add` treat it as the order
file. Needs valgrind and nm (binutils).
"""

import argparse
import collections
import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
ORDER = os.path.join(HERE, "prose.order")
DATA = os.path.join(HERE, "prose.data")

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, HERE)
import data  # noqa: E402  (the read-only data a check reads)
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
                    # callgrind marks recursion levels with 'N, and names
                    # the entry point `_start` "(below main)".
                    name = re.sub(r"'\d+$", "", fn)
                    costs["_start" if name == "(below main)" else name] += int(parts[1])


def under_callgrind(binary, args, out):
    """The command that runs `binary args` under callgrind, its counts
    written to `out`."""
    return [
        "valgrind",
        "--tool=callgrind",
        # Threads take turns: the paths two threads meeting take (a contended
        # lock, the allocator's pages of a thread that ended) run as they do
        # outside valgrind.
        "--fair-sched=yes",
        "--demangle=no",
        "--dump-instr=no",
        f"--callgrind-out-file={out}",
        binary,
        *args,
    ]


def record(binary):
    """What the check runs, in three tiers: a check of one line (start-up,
    the report, the parts of the analysis every program runs), a check of
    the OpenProse corpora (the commonest run), then everything a check of
    every directory runs (the other kinds of document, the JSON report).
    Each tier is its name and a counter of the instructions each function
    ran itself. Then the input sections of read-only data the same runs
    read (`data.record`; None without the binary's link map)."""
    dirs = inputs()
    one = tempfile.NamedTemporaryFile("w", suffix=".prose", delete=False)
    one.write('session "hi"\n')
    one.close()
    corpora = [d for d in dirs if not d.startswith(ROOT + os.sep)]
    tiers = [
        ("a check of one line", [["check", one.name]]),
        ("a check of the corpora", [["check", *corpora]] if corpora else []),
        ("the rest of the check's", [["check", *dirs], ["check", "--format", "json", *dirs]]),
    ]
    counted = []
    with tempfile.TemporaryDirectory() as tmp:
        for t, (label, runs) in enumerate(tiers):
            costs = collections.Counter()
            for i, args in enumerate(runs):
                out = os.path.join(tmp, f"callgrind.{t}.{i}")
                subprocess.run(
                    under_callgrind(binary, args, out),
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    check=False,  # `prose check` exits 1 on the examples' errors
                )
                self_costs(out, os.path.realpath(binary), costs)
            counted.append((label, costs))
    sections = data.record(binary, tiers)
    os.unlink(one.name)
    return counted, sections


EXTENSIONS = (".prose", ".md", ".json", ".jsonc", ".dialect")


class Server:
    """A language server on pipes: framed JSON-RPC messages, read by a
    thread; the server's own requests answered with `null`."""

    def __init__(self, command):
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.messages = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            self.messages.put(json.loads(out.read(length)))

    def send(self, message):
        body = json.dumps(dict(message, jsonrpc="2.0")).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    def wait_for(self, matches, timeout=120):
        """Reads messages until one `matches`; False when the server stops
        or takes longer than `timeout` seconds."""
        while True:
            try:
                message = self.messages.get(timeout=timeout)
            except queue.Empty:
                return False
            if message is None:
                return False
            if "method" in message and "id" in message:
                self.send({"id": message["id"], "result": None})
            elif matches(message):
                return True

    def request(self, method, params):
        self.next_id += 1
        ident = self.next_id
        self.send({"id": ident, "method": method, "params": params})
        self.wait_for(lambda m: m.get("id") == ident and "method" not in m)

    def published(self, uri):
        return lambda m: m.get("method") == "textDocument/publishDiagnostics" and (
            m["params"]["uri"] == uri
        )


def file_uri(path):
    return "file://" + urllib.parse.quote(os.path.abspath(path))


def documents():
    """Every document of the recorded directories: (path, text)."""
    found = []
    for d in inputs():
        for base, _, names in os.walk(d):
            for name in sorted(names):
                if name.endswith(EXTENSIONS):
                    path = os.path.join(base, name)
                    with open(path, encoding="utf-8", errors="replace") as f:
                        found.append((path, f.read()))
    return sorted(found)


def editing_session(server, tmp):
    """Opens every document, asks what an editor asks of each kind, then
    types in a long program: a `#` at a line start and a letter in a
    prompt, each typed and deleted, awaiting the diagnostics every time."""
    server.request(
        "initialize",
        {
            "processId": None,
            "rootUri": file_uri(tmp),
            "capabilities": {
                "textDocument": {
                    "publishDiagnostics": {"relatedInformation": True},
                    "hover": {"contentFormat": ["markdown", "plaintext"]},
                    "completion": {"completionItem": {"snippetSupport": True}},
                }
            },
        },
    )
    server.notify("initialized", {})
    docs = documents()
    prose = [p for p, _ in docs if p.endswith(".prose")]
    longest = max(prose, key=os.path.getsize)
    program = os.path.join(tmp, "long.prose")
    with open(longest, encoding="utf-8") as f:
        text = f.read() * 4
    with open(program, "w", encoding="utf-8") as f:
        f.write(text)
    docs.append((program, text))
    for path, content in docs:
        uri = file_uri(path)
        server.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "", "version": 1, "text": content}},
        )
        server.wait_for(server.published(uri), timeout=60)
        whole = {"start": {"line": 0, "character": 0}, "end": {"line": 3, "character": 0}}
        doc = {"textDocument": {"uri": uri}}
        at = dict(doc, position={"line": 2, "character": 4})
        for method, params in [
            ("textDocument/hover", at),
            ("textDocument/completion", at),
            ("textDocument/definition", at),
            ("textDocument/references", dict(at, context={"includeDeclaration": True})),
            ("textDocument/documentHighlight", at),
            ("textDocument/documentSymbol", doc),
            ("textDocument/foldingRange", doc),
            ("textDocument/semanticTokens/full", doc),
            ("textDocument/inlayHint", dict(doc, range=whole)),
            ("textDocument/codeLens", doc),
            ("textDocument/documentLink", doc),
            ("textDocument/codeAction", dict(doc, range=whole, context={"diagnostics": []})),
            ("textDocument/formatting", dict(doc, options={"tabSize": 2, "insertSpaces": True})),
        ]:
            server.request(method, params)
    uri = file_uri(program)
    lines = text.split("\n")
    middle = len(lines) // 2
    prompt = next(
        (i for i in range(middle, len(lines)) if '"' in lines[i] and "#" not in lines[i]), middle
    )
    column = lines[prompt].index('"') + 1 if '"' in lines[prompt] else 0
    version = 1
    for _ in range(10):
        for line, char, typed in [(middle, 0, "#"), (prompt, column, "x")]:
            for edit in [typed, ""]:
                version += 1
                end = char + (1 if edit == "" else 0)
                server.notify(
                    "textDocument/didChange",
                    {
                        "textDocument": {"uri": uri, "version": version},
                        "contentChanges": [
                            {
                                "range": {
                                    "start": {"line": line, "character": char},
                                    "end": {"line": line, "character": end},
                                },
                                "text": edit,
                            }
                        ],
                    },
                )
                server.wait_for(server.published(uri), timeout=60)
    server.request("shutdown", None)
    server.notify("exit", None)


def record_server(binary, tmp):
    """What `binary lsp` (`prose-lsp` alone) runs through
    [`editing_session`]."""
    costs = collections.Counter()
    out = os.path.join(tmp, "callgrind.lsp")
    work = os.path.join(tmp, "workspace")
    os.makedirs(work)
    server = Server(under_callgrind(binary, [] if is_server(binary) else ["lsp"], out))
    editing_session(server, work)
    server.proc.stdin.close()
    server.proc.wait(timeout=600)
    self_costs(out, os.path.realpath(binary), costs)
    return costs


# Functions of crtbegin.o that every process runs (the constructors' and
# destructors' table walks) and callgrind leaves out: listed first, the
# section that holds them is not left alone among cold code.
C_RUNTIME = ["frame_dummy", "register_tm_clones", "deregister_tm_clones", "__do_global_dtors_aux"]


def is_server(binary):
    """Whether `binary` is `prose-lsp`, the language server alone."""
    return os.path.basename(binary).startswith("prose-lsp")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "prose"))
    parser.add_argument("--check", action="store_true", help="only say how much of the code the file lists")
    parser.add_argument("--add", action="store_true", help="append to the file, keeping it")
    args = parser.parse_args()
    # A musl build (`--target x86_64-unknown-linux-musl`) has lists of its
    # own (prose-build's `for_target`).
    musl = MUSL in os.path.abspath(args.binary)
    order, data_list = (musl_list(ORDER), musl_list(DATA)) if musl else (ORDER, DATA)
    symbols = text_symbols(args.binary)
    # `prose-lsp` has no check: its build shares the check's code, whose
    # names `prose`'s recording gave (`--add --binary target/release/prose-lsp`
    # after `cargo build --release -p prose-lsp` alone adds the server's).
    tiers, sections = ([], None) if is_server(args.binary) else record(args.binary)
    if musl and sections is not None:
        # A static binary has no `.dynamic` to put `.data.rel.ro` before.
        sections = [s for s in sections if not s.startswith(".data.rel.ro")]
    with tempfile.TemporaryDirectory() as tmp:
        server = record_server(args.binary, tmp)

    # Each tier's new functions, the most run first: what a check of one
    # line runs, then what a check of the corpora adds, then the rest of
    # the check's, then what only the server ran. A run maps the pages
    # around every page of code it touches, so the code of the commonest
    # runs is kept in one stretch, not spread among what only other kinds
    # of document need.
    def by_cost(costs, before):
        return sorted(
            (s for s in costs if s in symbols and s not in before),
            key=lambda s: (-costs[s], s),
        )

    # The C runtime's start-up and exit code (crtbegin.o's), which runs in
    # every process but which callgrind does not count.
    tiered = [s for s in C_RUNTIME if s in symbols] if tiers else []
    seen = set(tiered)
    for label, costs in tiers:
        ran = by_cost(costs, seen)
        print(f"{label}: {len(ran)} functions", file=sys.stderr)
        tiered += ran
        seen.update(ran)
    runs = [] if is_server(args.binary) else [("a check", tiered)]
    runs.append(("the language server", by_cost(server, seen)))
    if sections is None and not is_server(args.binary):
        print(
            f"error: no link map for {args.binary}: prose-build has lld write one "
            "(build/*/out/link.map beside the binary) in release builds for x86-64 Linux",
            file=sys.stderr,
        )
        return 1
    if args.check:
        listed = {l.strip() for l in open(order) if l.strip()}
        stale = False
        for what, ran in runs:
            found = sum(1 for s in ran if s in listed)
            print(f"{found} of the {len(ran)} functions {what} runs in {args.binary} are in {order}")
            stale |= found * 10 < len(ran) * 9
        if sections is not None:
            listed = {l.strip() for l in open(data_list)} if os.path.exists(data_list) else set()
            found = sum(1 for s in sections if s in listed)
            print(f"{found} of the {len(sections)} data sections a check reads in {args.binary} are in {data_list}")
            stale |= found * 10 < len(sections) * 9
        return 1 if stale else 0
    ordered = [s for _, ran in runs for s in ran]
    if not all(ran for _, ran in runs):
        print("error: no function of the binary ran (is valgrind installed?)", file=sys.stderr)
        return 1
    write_list(order, ordered, args.add, "symbols")
    if sections is not None:
        if not sections:
            print("error: the check read no data of the binary's (is valgrind installed?)", file=sys.stderr)
            return 1
        write_list(data_list, sections, args.add, "sections")
    return 0


MUSL = "x86_64-unknown-linux-musl"


def musl_list(path):
    """The list of a musl build beside `path`: `prose.musl.order` for
    `prose.order`."""
    stem, ext = os.path.splitext(path)
    return f"{stem}.musl{ext}"


def write_list(path, names, add, what):
    """Writes `names` to `path`, one a line, after the names the file
    already lists when `add` (those then left out of `names`)."""
    kept = [l.strip() for l in open(path) if l.strip()] if add and os.path.exists(path) else []
    listed = set(kept)
    new = [n for n in names if n not in listed]
    with open(path, "w") as f:
        for n in kept + new:
            f.write(n + "\n")
    print(f"wrote {len(kept) + len(new)} {what} to {path} ({len(new)} new)")


if __name__ == "__main__":
    sys.exit(main())
