#!/usr/bin/env python3
"""tbits.py: the bit patterns of a study, key for key. Proof that a change of structure changed
no result: every row's status and result, exact, min and max bit patterns equal a stored file.

  tbits.py extract RESULTS_DIR OUT.csv.gz      write the bits of RESULTS_DIR/results.csv
  tbits.py compare RESULTS_DIR STORED.csv.gz [--built V1,V2,...]
                                               exit 0 when equal key for key, 1 otherwise

--built names the variants this build registers: stored rows of a variant it does not register
(an optional row, e.g. CUB's tiers built only with CCCL 3.3's headers) are counted and named,
not compared. Without --built every stored row must be present.

A key is (op, experiment, dataset, params, dtype, n, variant, config). Timing columns and
anything derived from them are not compared: they are measurements, not results."""
import csv
import gzip
import sys

KEY = ("op", "experiment", "dataset", "params", "dtype", "n", "variant", "config")
BITS = ("status", "result_hex", "exact_hex", "min_hex", "max_hex", "distinct")


def load_results(directory):
    rows = {}
    with open(f"{directory}/results.csv", newline="") as f:
        lines = (line for line in f if not line.startswith("#"))
        for r in csv.DictReader(lines):
            missing = [c for c in KEY + BITS if c not in r]
            if missing:
                sys.exit(f"tbits: {directory}/results.csv lacks columns {missing}")
            k = tuple(r[c] for c in KEY)
            if k in rows:
                sys.exit(f"tbits: key {k} appears twice in {directory}/results.csv")
            rows[k] = tuple(r[c] for c in BITS)
    return rows


def load_stored(path):
    rows = {}
    with gzip.open(path, "rt", newline="") as f:
        rd = csv.reader(f)
        header = next(rd)
        if tuple(header) != KEY + BITS:
            sys.exit(f"tbits: {path}: unexpected header {header}")
        for r in rd:
            rows[tuple(r[: len(KEY)])] = tuple(r[len(KEY):])
    return rows


def main(argv):
    built = None
    if len(argv) == 6 and argv[4] == "--built":
        built = set(argv[5].split(","))
        argv = argv[:4]
    if len(argv) != 4 or argv[1] not in ("extract", "compare"):
        sys.exit(__doc__)
    got = load_results(argv[2])
    if argv[1] == "extract":
        with gzip.open(argv[3], "wt", newline="", compresslevel=9) as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(KEY + BITS)
            for k in sorted(got):
                w.writerow(k + got[k])
        print(f"tbits: {len(got)} rows written to {argv[3]}")
        return 0
    want = load_stored(argv[3])
    if built is not None:
        vi = KEY.index("variant")
        absent = sorted({k[vi] for k in want if k[vi] not in built})
        dropped = [k for k in want if k[vi] not in built]
        for k in dropped:
            del want[k]
        if absent:
            print(f"tbits: {len(dropped)} stored rows of variants this build does not register "
                  f"({', '.join(absent)}) not compared")
    only_got = sorted(set(got) - set(want))
    only_want = sorted(set(want) - set(got))
    differ = sorted(k for k in set(got) & set(want) if got[k] != want[k])
    for k in only_want[:20]:
        print("missing row:", "|".join(k))
    for k in only_got[:20]:
        print("extra row:  ", "|".join(k))
    for k in differ[:20]:
        print("differs:    ", "|".join(k))
        print("   stored:  ", dict(zip(BITS, want[k])))
        print("   now:     ", dict(zip(BITS, got[k])))
    bad = len(only_got) + len(only_want) + len(differ)
    print(f"tbits: {len(want) - len(only_want) - len(differ)} passed, {bad} failed "
          f"({len(want)} stored rows; {len(only_want)} missing, {len(only_got)} extra, {len(differ)} differ)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
