#!/usr/bin/env python3
"""ncu_why.py: the summary of experiments/ncu_why.sh's profiles: one line per profiled launch
(why.csv) and a Markdown table (why.md, also on stdout; a profile without launches is said and
left out) of time, DRAM throughput, thread
instructions a value, issue slots busy, achieved occupancy, registers, FP64 pipe and the three
largest stall reasons.

    usage: ncu_why.py --dir RUN_DIR CASE=N [CASE=N ...]
           (RUN_DIR/ncu_CASE.csv: `ncu --csv --page raw --print-units base` output, the profiled
           program's own lines before it; N: the values the case's launch reads)
"""
import argparse
import csv
import io
import math
import os
import re
import sys

STALL = re.compile(r"^smsp__warp_issue_stalled_([a-z_]+)_per_warp_active\.pct$")
TIME_UNITS = {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1.0, "us": 1.0, "msecond": 1e3, "ms": 1e3,
              "second": 1e6, "s": 1e6}
ANON = re.compile(r"<unnamed>::|\(anonymous namespace\)::")
CASE = re.compile(r"^[A-Za-z0-9_.-]{1,100}$")
IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,199}$")
USED = {"gpu__time_duration.sum", "dram__throughput.avg.pct_of_peak_sustained_elapsed",
        "smsp__thread_inst_executed.sum", "smsp__inst_executed.sum",
        "smsp__issue_active.avg.pct_of_peak_sustained_active", "sm__warps_active.avg.pct_of_peak_sustained_active",
        "sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active", "launch__registers_per_thread",
        "launch__grid_size", "launch__block_size"}


def fail(msg):
    sys.exit("ncu_why.py: " + msg)


def number(text, what):
    t = text.strip().replace(",", "")
    if t in ("", "n/a", "N/A"):
        return math.nan
    try:
        return float(t)
    except ValueError:
        fail(f"{what}: '{text[:40]}' is not a number")


def read_profile(path):
    """The launches of one raw-page CSV: a list of dicts metric -> value (time in microseconds),
    with 'kernel' the kernel's name (its template arguments and parameters cut)."""
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    start = text.find('"ID","Process ID"')
    if start < 0:   # the regex matched no kernel: said, and the case left out
        print(f"ncu_why.py: {path}: no ncu raw table (the case's kernel regex matched no launch)",
              file=sys.stderr)
        return []
    rows = list(csv.reader(io.StringIO(text[start:])))
    if len(rows) < 3:
        fail(f"{path}: the ncu table has no launch")
    head, units = rows[0], rows[1]
    if "Kernel Name" not in head:
        fail(f"{path}: no 'Kernel Name' column")
    out = []
    for r in rows[2:]:
        if len(r) != len(head):
            if not any(x.strip() for x in r):
                continue
            fail(f"{path}: a row of {len(r)} fields under a header of {len(head)}")
        # the name without its return type, namespaces, template arguments and parameters
        full = ANON.sub("", r[head.index("Kernel Name")])
        name = (re.split(r"[<(]", full, maxsplit=1)[0].split() or [""])[-1].split("::")[-1]
        # an identifier, or '?': the name goes into a Markdown table cell
        d = {"kernel": name if IDENT.match(name) else "?"}
        for name, unit, val in zip(head, units, r):
            if name not in USED and not STALL.match(name):   # device attributes and the like: text
                continue
            v = number(val, f"{path}: {name}")
            if name == "gpu__time_duration.sum":
                if unit not in TIME_UNITS:
                    fail(f"{path}: gpu__time_duration.sum in unknown unit '{unit}'")
                v *= TIME_UNITS[unit]
            d[name] = v
        out.append(d)
    return out


def summarise(case, n, launch):
    g = launch.get
    stalls = sorted(((v, m.group(1)) for k, v in launch.items()
                     if isinstance(v, float) and (m := STALL.match(k)) and not math.isnan(v)
                     and m.group(1) != "selected"), reverse=True)
    return {
        "case": case,
        "kernel": launch["kernel"],
        "grid": g("launch__grid_size", math.nan),
        "block": g("launch__block_size", math.nan),
        "regs": g("launch__registers_per_thread", math.nan),
        "time_us": g("gpu__time_duration.sum", math.nan),
        "dram_pct": g("dram__throughput.avg.pct_of_peak_sustained_elapsed", math.nan),
        "inst_per_value": g("smsp__thread_inst_executed.sum", math.nan) / n,
        "warp_inst_per_value": g("smsp__inst_executed.sum", math.nan) / n,
        "issue_pct": g("smsp__issue_active.avg.pct_of_peak_sustained_active", math.nan),
        "occupancy_pct": g("sm__warps_active.avg.pct_of_peak_sustained_active", math.nan),
        "fp64_pct": g("sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active", math.nan),
        "stalls": "; ".join(f"{s} {v:.0f} %" for v, s in stalls[:3]),
    }


def fmt(v, spec):
    return "" if isinstance(v, float) and math.isnan(v) else format(v, spec)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", required=True)
    ap.add_argument("cases", nargs="+", metavar="CASE=N")
    a = ap.parse_args()
    lines = []
    for item in a.cases:
        case, sep, n = item.partition("=")
        if not sep or not CASE.match(case) or not n.isdigit() or int(n) <= 0:
            fail(f"'{item}' is not CASE=N (CASE: letters, digits, _ . -; N: a positive count)")
        for launch in read_profile(os.path.join(a.dir, f"ncu_{case}.csv")):
            lines.append(summarise(case, int(n), launch))
    if not lines:
        fail("no profile holds a launch")
    cols = list(lines[0])
    with open(os.path.join(a.dir, "why.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols)
        w.writeheader()
        w.writerows(lines)
    md = ["| case | kernel | grid x block | regs | time (us) | DRAM % | thread instr. a value | issue busy % "
          "| occupancy % | FP64 pipe % | largest stalls (% of active warps' cycles) |",
          "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for s in lines:
        md.append(f"| {s['case']} | `{s['kernel']}` | {fmt(s['grid'], '.0f')} x {fmt(s['block'], '.0f')} "
                  f"| {fmt(s['regs'], '.0f')} | {fmt(s['time_us'], '.1f')} | {fmt(s['dram_pct'], '.1f')} "
                  f"| {fmt(s['inst_per_value'], '.2f')} | {fmt(s['issue_pct'], '.1f')} "
                  f"| {fmt(s['occupancy_pct'], '.1f')} | {fmt(s['fp64_pct'], '.1f')} | {s['stalls']} |")
    text = "\n".join(md) + "\n"
    with open(os.path.join(a.dir, "why.md"), "w") as f:
        f.write(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
