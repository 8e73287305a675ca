#!/usr/bin/env python3
"""sass_compare.py: two folders of `cuobjdump -sass` listings (one file per object, the same
relative names) compared function by function, so that a change can be shown to leave the
kernels' machine code as it was (the GPU code that passed its tests and was timed).

The anonymous-namespace and internal-linkage names carry a hash of their translation unit's path
(_GLOBAL__N__<hex>_, _INTERNAL_<hex>_), which differs between two checkouts: both are masked.
Instructions are compared without their addresses and encodings.

  usage: sass_compare.py BASE_DIR HEAD_DIR
  prints "same: N functions in M objects", or one line per function that differs, is new or is
  gone (with both instruction counts); exit 0 same, 1 different, 2 bad input."""
import os
import re
import sys

MASKS = [(re.compile(r"_GLOBAL__N__[0-9a-f]+_"), "_GLOBAL__N__#_"),
         (re.compile(r"_INTERNAL_[0-9a-f]+_"), "_INTERNAL_#_")]
FUNC = re.compile(r"^\s*Function : (\S+)")
INSN = re.compile(r"^\s*/\*[0-9a-f]{4,}\*/\s*(.*?)\s*;")


def mask(text):
    for pat, rep in MASKS:
        text = pat.sub(rep, text)
    return text


def functions(path):
    """{function name: [instruction, ...]} of one listing (names and operands masked)."""
    funcs, cur = {}, None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = mask(line)
            m = FUNC.match(line)
            if m:
                cur = m.group(1)
                if cur in funcs:
                    raise ValueError(f"{path}: function {cur} listed twice")
                funcs[cur] = []
                continue
            m = INSN.match(line)
            if m and cur is not None:
                funcs[cur].append(" ".join(m.group(1).split()))
    return funcs


def listings(root):
    out = {}
    for d, _, names in os.walk(root):
        for n in names:
            if n.endswith(".sass"):
                p = os.path.join(d, n)
                out[os.path.relpath(p, root)] = p
    return out


def compare(base_dir, head_dir):
    """(report lines, number of differences)."""
    a, b = listings(base_dir), listings(head_dir)
    lines, diffs, nfun = [], 0, 0
    for rel in sorted(set(a) | set(b)):
        if rel not in b or rel not in a:
            lines.append(f"{rel}: only in {'base' if rel in a else 'head'}")
            diffs += 1
            continue
        fa, fb = functions(a[rel]), functions(b[rel])
        for name in sorted(set(fa) | set(fb)):
            nfun += 1
            if fa.get(name) != fb.get(name):
                diffs += 1
                na = len(fa[name]) if name in fa else "-"
                nb = len(fb[name]) if name in fb else "-"
                lines.append(f"{rel}: {name}: {na} -> {nb} instructions")
    if diffs == 0:
        lines.append(f"same: {nfun} functions in {len(a)} objects")
    return lines, diffs


def main(argv):
    if len(argv) != 3 or not all(os.path.isdir(d) for d in argv[1:]):
        sys.stderr.write(__doc__.split("\n\n")[-1] + "\n")
        return 2
    try:
        lines, diffs = compare(argv[1], argv[2])
    except (OSError, ValueError) as e:
        sys.stderr.write(f"sass_compare: {e}\n")
        return 2
    if not listings(argv[1]):
        sys.stderr.write(f"sass_compare: no .sass listing under {argv[1]}\n")
        return 2
    print("\n".join(lines))
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
