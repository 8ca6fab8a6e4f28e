"""The read-only data a check reads, for `prose.data` (record.py's second half).

The linker places a constant where the compiler emitted it, and most of the
constants a check reads (the pieces of its messages, lookup tables, vtables)
are anonymous input sections (`.rodata..Lanon.<crate hash>.<n>`) that no
symbol names, so the symbol-ordering file cannot move them. prose-build's
`order_data` hands lld a linker script that puts the input sections listed in
`prose.data` first instead. This module finds them: it runs the checks of
record.py's tiers under valgrind's lackey, which prints the address of every
load and store, keeps those that fall in the binary's read-only data, and
looks each up in the link map lld wrote beside the build (`link.map` in the
out directory of the binary's build script) to name its input section.
"""

import bisect
import glob
import os
import re
import subprocess

# An input section's line in lld's map: address, load address, size,
# alignment, then eight spaces (an output section has none, a symbol
# sixteen) and `file:(section)`.
INPUT = re.compile(r"^\s*([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+ {9}(\S.*):\((\.[^()]*)\)$")
# The objects of the binary's own crate in the map: `.../deps/<crate>-<hash>.<...>.rcgu.o`.
OBJECT = re.compile(r"(\S*/deps/[^/.]+)\.[^/]*\.rcgu\.o:\(")


def listable(name):
    """Whether prose-build's linker script takes `name` (its `listable`)."""
    kind = (
        name.startswith(".rodata")
        or name.startswith(".data.rel.ro")
        or name == ".debug_gdb_scripts"
    )
    return kind and re.fullmatch(r"[A-Za-z0-9._$]+", name) is not None


def link_map(binary):
    """The link map lld wrote when it linked `binary`: the newest
    `build/*/out/link.map` beside it whose objects are those of the file
    `binary` is a hard link of (`deps/<crate>-<hash>`), or None."""
    target = os.path.dirname(os.path.realpath(binary))
    inode = os.stat(binary).st_ino
    maps = glob.glob(os.path.join(target, "build", "*", "out", "link.map"))
    for path in sorted(maps, key=os.path.getmtime, reverse=True):
        with open(path, errors="replace") as f:
            for line in f:
                m = OBJECT.search(line)
                if m:
                    linked = m.group(1)
                    if os.path.exists(linked) and os.stat(linked).st_ino == inode:
                        return path
                    break
    return None


def input_sections(path):
    """The listable input sections of a link map, by address: a list of
    (address, size, section name)."""
    found = []
    with open(path, errors="replace") as f:
        for line in f:
            m = INPUT.match(line.rstrip("\n"))
            if not m:
                continue
            address, size, name = int(m.group(1), 16), int(m.group(2), 16), m.group(4)
            if size and address and listable(name):
                found.append((address, size, name))
    found.sort()
    return found


def under_lackey(binary, args, fd):
    """The command that runs `binary args` under lackey, every load and
    store written to file descriptor `fd`."""
    return ["valgrind", "--tool=lackey", "--trace-mem=yes", f"--log-fd={fd}", binary, *args]


def touched(binary, args, sections, starts):
    """The sections of `sections` (starting at `starts`) that `binary args`
    reads, in the order it first reads them."""
    low, high = sections[0][0], sections[-1][0] + sections[-1][1]
    order, seen = [], set()
    read, write = os.pipe()
    proc = subprocess.Popen(
        under_lackey(binary, args, write),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        pass_fds=(write,),
    )
    os.close(write)
    with os.fdopen(read, errors="replace") as trace:
        for line in trace:
            # ` L 0021f3a0,8`, ` S ...`, ` M ...`; instructions are `I  ...`.
            if line[:1] != " " or line[1:2] not in ("L", "S", "M"):
                continue
            address = int(line[3:].split(",", 1)[0], 16)
            if not low <= address < high:
                continue
            i = bisect.bisect_right(starts, address) - 1
            if i < 0 or i in seen or address >= sections[i][0] + sections[i][1]:
                continue
            seen.add(i)
            order.append(sections[i][2])
    proc.wait()  # `prose check` exits 1 on the examples' errors
    return order


def record(binary, tiers):
    """The input sections the runs of `tiers` (record.py's: a label and a
    list of argument lists each) read, each tier's new ones in the order they
    were first read; None when the binary's link map is not found."""
    path = link_map(binary)
    if path is None:
        return None
    sections = input_sections(path)
    starts = [s[0] for s in sections]
    listed, out = set(), []
    for _label, runs in tiers:
        for args in runs:
            for name in touched(binary, args, sections, starts):
                if name not in listed:
                    listed.add(name)
                    out.append(name)
    return out
