"""study_check.py: what the Python tests of `sumlab run` share: counted checks (a failure is one
line on stderr), a study run on the CPU backend with its results.csv rows, report.md's sections,
and a copy of the newest committed H200 study to plant data in. Imported by the tests beside it
(tlse_study.py, tmoments_study.py, tstudy_anchors.py, thtml_hostile.py, treport_long.py)."""
import csv
import glob
import gzip
import os
import shutil
import subprocess
import sys

fails = checks = 0


def check(what, ok):
    global fails, checks
    checks += 1
    if not ok:
        fails += 1
        print(f"FAIL: {what}", file=sys.stderr)


def done():
    """Prints the counts; the exit status: 1 when a check failed."""
    print(f"{checks - fails} passed, {fails} failed")
    return 1 if fails else 0


def run_study(sumlab, out, op, *args):
    """`sumlab run ARGS --op OP --backend cpu -o OUT -q` (checked to exit 0): results.csv's rows."""
    env = dict(os.environ, SUMLAB_NO_GPU="1")
    p = subprocess.run([sumlab, "run", *args, "--op", op, "--backend", "cpu", "-o", out, "-q"],
                       capture_output=True, text=True, env=env)
    check(f"run {op} {' '.join(args)} exits 0 ({p.stderr[-400:]})", p.returncode == 0)
    with open(os.path.join(out, "results.csv"), newline="") as f:
        return list(csv.DictReader(f))


def section(md, title):
    """The lines of report.md's section `## title` (up to the next ## heading)."""
    lines, on = [], False
    for line in md.splitlines():
        if line.startswith("## "):
            on = line == "## " + title
            continue
        if on:
            lines.append(line)
    return lines


def committed_study_copy(src, test, tmp, charts=False):
    """The committed full study (src/experiments/measured/*-study, the one whose data is kept) copied into tmp/run
    (its distribution.csv.gz, run.conf and meta.json; charts/ made when asked) with its
    results.csv rows read for the caller to plant data in and write: (run dir, rows), or None
    with one line on stderr naming the test."""
    found = sorted(glob.glob(os.path.join(src, "experiments/measured/*-study/results.csv.gz")))
    if not found:
        print(f"{test}: no committed study (experiments/measured/*-study/results.csv.gz)", file=sys.stderr)
        return None
    study = os.path.dirname(found[-1])
    run = os.path.join(tmp, "run")
    os.makedirs(os.path.join(run, "charts") if charts else run)
    for f in ("distribution.csv.gz", "run.conf", "meta.json"):
        shutil.copy(os.path.join(study, f), run)
    with gzip.open(os.path.join(study, "results.csv.gz"), "rt", newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return run, rows
