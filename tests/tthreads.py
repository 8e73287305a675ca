#!/usr/bin/env python3
"""tthreads.py: two outputs of sumlab are the same apart from their timing columns.

  tthreads.py run DIR_A DIR_B      results.csv (every column but the timings, row for row, in
                                   file order) and distribution.csv (all of it) are equal
  tthreads.py sum A.csv B.csv      two `sumlab sum --format csv` outputs, likewise
  --gpu (last argument)            leave out the rows of nondeterministic variants (on a GPU
                                   their bits depend on the hardware and on timing) and the reps
                                   and note columns (a time budget caps any variant's
                                   repetitions in the sweeps by its measured time)"""
import csv
import sys

TIMING = {"time_ms_median", "time_ms_min", "time_ms_max", "gbps", "time_ms"}


SKIP = set()   # variants left out (--gpu: the nondeterministic ones)


def rows(path):
    with open(path, newline="") as f:
        lines = [line for line in f if not line.startswith("#")]
    rd = csv.reader(lines)
    header = next(rd)
    keep = [i for i, h in enumerate(header) if h not in TIMING]
    vi = header.index("variant") if "variant" in header else None
    return [header[i] for i in keep], [[r[i] for i in keep] for r in rd
                                       if vi is None or r[vi] not in SKIP]


def nondet_variants(path):
    with open(path, newline="") as f:
        rd = csv.DictReader(line for line in f if not line.startswith("#"))
        return {r["variant"] for r in rd if r.get("det_class") == "nondeterministic"}


def same(a, b):
    ha, ra = rows(a)
    hb, rb = rows(b)
    if ha != hb:
        print(f"tthreads: {a} and {b} have different columns")
        return False
    if len(ra) != len(rb):
        print(f"tthreads: {a} has {len(ra)} rows, {b} has {len(rb)}")
        return False
    for k, (x, y) in enumerate(zip(ra, rb)):
        if x != y:
            diff = [f"{h}: {p!r} != {q!r}" for h, p, q in zip(ha, x, y) if p != q]
            print(f"tthreads: row {k + 1} differs between {a} and {b}: " + "; ".join(diff[:6]))
            return False
    return True


def main(argv):
    if argv[-1] == "--gpu":
        argv = argv[:-1]
        TIMING.update({"reps", "note"})
        if len(argv) == 4 and argv[1] == "run":
            SKIP.update(nondet_variants(f"{argv[2]}/results.csv"))
        else:
            SKIP.update({"atomic-thread", "atomic-block"})
    if len(argv) != 4 or argv[1] not in ("run", "sum"):
        sys.exit(__doc__)
    if argv[1] == "sum":
        return 0 if same(argv[2], argv[3]) else 1
    ok = same(f"{argv[2]}/results.csv", f"{argv[3]}/results.csv")
    ok = same(f"{argv[2]}/distribution.csv", f"{argv[3]}/distribution.csv") and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
