#!/usr/bin/env bash
# The static musl build that README.md's Install section gives (the lightest
# on x86-64 Linux): builds it as the README says, runs prose-alloc's tests for
# that target (where prose-alloc's `memcmp`, `bcmp`, `memcpy` and `memmove`
# take the place of musl's), and checks that the musl binary reports exactly
# what the default build reports over every document of the corpora and the
# shipped examples: the human report and JSON, in both profiles, and the
# same exit status.
#
# Usage: tests/musl.sh [REFERENCE]
#   REFERENCE: the default build's `prose` to compare with (default
#   target/debug/prose, built when missing).
# The musl `prose-lsp` (the README installs it too) is checked the same way:
# static, and publishing the diagnostics `REFERENCE lsp` publishes for the
# shipped examples (python3 drives both servers over stdio).
# Needs rustup (to add the target) and musl-gcc (Debian's musl-tools, which
# builds mimalloc's C; installed with apt when missing). Reads PROSE_CORPUS
# and PROSE_HISTORY_CORPUS (default: ../shared/corpus/...). .ci/run runs it.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET=x86_64-unknown-linux-musl
if [ "$(uname -m)" != x86_64 ] || [ "$(uname -s)" != Linux ]; then
  echo "tests/musl.sh: the musl build is for x86-64 Linux; this is $(uname -sm)" >&2
  exit 1
fi
rustup target add "$TARGET"
if ! command -v musl-gcc >/dev/null 2>&1; then
  echo "musl-gcc not found: installing musl-tools" >&2
  apt-get update -qq && apt-get install -y -qq musl-tools
fi

# prose-alloc's own tests, in the build where its C functions are exported.
cargo test --locked -p prose-alloc --target "$TARGET"

# The build the README gives (its install is this build, then a copy).
RUSTFLAGS="-C relocation-model=static" \
  cargo build --locked --release --target "$TARGET" -p prose-cli -p prose-lsp
musl="target/$TARGET/release/prose"
musl_lsp="target/$TARGET/release/prose-lsp"
for bin in "$musl" "$musl_lsp"; do
  if readelf -lW "$bin" | grep INTERP >/dev/null; then
    echo "tests/musl.sh: $bin asks for a dynamic loader: not a static binary" >&2
    exit 1
  fi
done

reference="${1:-target/debug/prose}"
if [ ! -x "$reference" ]; then
  cargo build --locked -p prose-cli
fi

shared="$(cd .. && pwd)/shared/corpus"
inputs=(
  "${PROSE_CORPUS:-$shared/openprose-examples}"
  "${PROSE_HISTORY_CORPUS:-$shared/openprose-history}"
  docs/examples
  editors/tests/grammar/cases
)
for dir in "${inputs[@]}"; do
  if [ ! -d "$dir" ]; then
    echo "tests/musl.sh: $dir not found" >&2
    exit 1
  fi
done

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
compared=0
for profile in default strict; do
  for format in human json; do
    args=(check --profile "$profile" --format "$format" "${inputs[@]}")
    status_ref=0
    status_musl=0
    "$reference" "${args[@]}" >"$out/ref" 2>&1 || status_ref=$?
    "$musl" "${args[@]}" >"$out/musl" 2>&1 || status_musl=$?
    if [ "$status_ref" != "$status_musl" ]; then
      echo "tests/musl.sh: exit status $status_musl from the musl build, $status_ref from $reference (profile $profile, format $format)" >&2
      exit 1
    fi
    if ! cmp -s "$out/ref" "$out/musl"; then
      echo "tests/musl.sh: the musl build's report differs (profile $profile, format $format):" >&2
      diff "$out/ref" "$out/musl" | head -40 >&2 || true
      exit 1
    fi
    lines=$(wc -l <"$out/ref")
    echo "profile $profile, format $format: the same $lines lines, exit status $status_ref"
    compared=$((compared + 1))
  done
done

# The musl language server against the reference's (`prose lsp`): the same
# diagnostics for every program of the inputs above.
if ! command -v python3 >/dev/null 2>&1; then
  echo "tests/musl.sh: python3 is needed to drive the language servers" >&2
  exit 1
fi
mapfile -t programs < <(find "${inputs[@]}" -name '*.prose' | sort)
python3 - "$reference" "$musl_lsp" "${programs[@]}" <<'EOF'
import json, os, subprocess, sys, threading

reference, musl_lsp, paths = sys.argv[1], sys.argv[2], sys.argv[3:]


class Server:
    """A language server on stdio, read on a thread of its own."""

    def __init__(self, cmd):
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.next_id = 0

    def send(self, message):
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def receive(self):
        length = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit("tests/musl.sh: a language server closed its output")
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return json.loads(self.proc.stdout.read(length))

    def wait_for(self, matches):
        while True:
            message = self.receive()
            if matches(message):
                return message

    def request(self, method, params):
        self.next_id += 1
        ident = self.next_id
        self.send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        return self.wait_for(lambda m: m.get("id") == ident)


def diagnostics(cmd):
    """What the server publishes for each program, opened one at a time."""
    server = Server(cmd)
    timer = threading.Timer(120, server.proc.kill)
    timer.start()
    try:
        root = "file://" + os.getcwd()
        server.request("initialize", {"processId": None, "rootUri": root, "capabilities": {}})
        server.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        found = {}
        for path in paths:
            uri = "file://" + os.path.abspath(path)
            text = open(path, encoding="utf-8").read()
            server.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
                "textDocument": {"uri": uri, "languageId": "openprose", "version": 1, "text": text}}})
            push = server.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                                   and m["params"]["uri"] == uri)
            found[path] = push["params"]["diagnostics"]
            server.send({"jsonrpc": "2.0", "method": "textDocument/didClose",
                         "params": {"textDocument": {"uri": uri}}})
        server.request("shutdown", None)
        server.send({"jsonrpc": "2.0", "method": "exit"})
        server.proc.stdin.close()
        if server.proc.wait(timeout=30) != 0:
            raise SystemExit(f"tests/musl.sh: {cmd[0]} exited with status {server.proc.returncode}")
        return found
    finally:
        timer.cancel()


expected = diagnostics([reference, "lsp"])
got = diagnostics([musl_lsp])
for path in paths:
    if got[path] != expected[path]:
        print(f"tests/musl.sh: the musl prose-lsp publishes other diagnostics for {path}:", file=sys.stderr)
        print(json.dumps(expected[path], indent=1)[:2000], file=sys.stderr)
        print(json.dumps(got[path], indent=1)[:2000], file=sys.stderr)
        sys.exit(1)
total = sum(len(d) for d in expected.values())
if total == 0:
    sys.exit("tests/musl.sh: the programs gave no diagnostics to compare")
print(f"prose-lsp: the same {total} diagnostics for {len(paths)} programs")
EOF
echo "tests/musl.sh: the static musl build reports as the default build ($compared reports compared, and the language server's diagnostics)"
