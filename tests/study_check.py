"""study_check.py: what the Python tests of `sumlab run` share: counted checks (a failure is one
line on stderr), a study run on the CPU backend with its results.csv rows, and report.md's
sections. Imported by the tests beside it (tlse_study.py, tmoments_study.py, tstudy_anchors.py)."""
import csv
import os
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
