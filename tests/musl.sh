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
  cargo build --locked --release --target "$TARGET" -p prose-cli
musl="target/$TARGET/release/prose"
if readelf -lW "$musl" | grep INTERP >/dev/null; then
  echo "tests/musl.sh: $musl asks for a dynamic loader: not a static binary" >&2
  exit 1
fi

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
echo "tests/musl.sh: the static musl build reports as the default build ($compared reports compared)"
