#!/usr/bin/env python3
"""tncu_why.py: experiments/ncu_why.py and ncu_why.sh without a GPU: the summary of Nsight Compute
raw-page CSV written here (the profiled program's lines before the table, thousands separators,
time in ns/us/ms, thread instructions a value, the three largest stalls with 'selected' left
out, missing metrics left blank), its refusals (no table, a short row, an unknown time unit, a
case name that is a path), and ncu_why.sh end to end on a stub ncu (a metric this ncu does not
know left out of --metrics, a case that fails, a case picked by name).
  usage: tncu_why.py [SOURCE_DIR]"""
import csv
import os
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from study_check import check, done  # noqa: E402  (counted checks, shared by the tests beside it)

src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
tool = os.path.join(src, "experiments", "ncu_why.py")
script = os.path.join(src, "experiments", "ncu_why.sh")


HEAD = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream", "Block Size",
        "Grid Size", "Device", "CC", "gpu__time_duration.sum", "smsp__thread_inst_executed.sum",
        "smsp__issue_active.avg.pct_of_peak_sustained_active", "launch__grid_size", "launch__block_size",
        "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct",
        "smsp__warp_issue_stalled_selected_per_warp_active.pct",
        "smsp__warp_issue_stalled_wait_per_warp_active.pct",
        "smsp__warp_issue_stalled_barrier_per_warp_active.pct",
        "smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct"]


def table(time_unit="nsecond", rows=None):
    units = ["", "", "", "", "", "", "", "", "", "", "", time_unit, "inst", "%", "", "", "%", "%", "%", "%", "%"]
    if rows is None:
        rows = [["0", "11", "sumlab", "h", "void rs_kernel<float, 3>(const float *, unsigned long)", "1", "7",
                 "(256, 1, 1)", "(528, 1, 1)", "0", "9.0", "9,500", "33,554,432", "71.5", "528", "256",
                 "40.0", "90.0", "12.5", "3.0", "20.0"],
                ["1", "11", "sumlab", "h", "void <unnamed>::sacc_bins_kernel<float, <unnamed>::Op<float>>(const T1 *)", "1", "7", "(128, 1, 1)", "(1, 1, 1)",
                 "0", "9.0", "2,000", "1,048,576", "n/a", "1", "128", "1.0", "0.5", "2.0", "5.0", "n/a"]]
    out = ['==PROF== Connected to process 11', 'variant,dtype,n', 'reproducible,f32,1048576']
    for r in [HEAD, units] + rows:
        out.append(",".join('"%s"' % x for x in r))
    return "\n".join(out) + "\n"


def run(args, **kw):
    return subprocess.run([sys.executable, tool] + args, capture_output=True, text=True, **kw)


with tempfile.TemporaryDirectory() as d:
    with open(os.path.join(d, "ncu_a.csv"), "w") as f:
        f.write(table())
    r = run(["--dir", d, "a=1048576"])
    check("summary exits 0: " + r.stderr, r.returncode == 0)
    rows = list(csv.DictReader(open(os.path.join(d, "why.csv")))) if r.returncode == 0 else []
    check("two launches summarised", len(rows) == 2)
    if len(rows) == 2:
        a, b = rows
        check("kernel name cut at its arguments: " + a["kernel"], a["kernel"] == "rs_kernel")
        check("second kernel name: " + b["kernel"], b["kernel"] == "sacc_bins_kernel")
        check("time in us from ns: " + a["time_us"], abs(float(a["time_us"]) - 9.5) < 1e-9)
        check("thread instructions a value: " + a["inst_per_value"], abs(float(a["inst_per_value"]) - 32.0) < 1e-12)
        check("grid read: " + a["grid"], float(a["grid"]) == 528)
        check("stalls largest first, selected left out: " + a["stalls"],
              a["stalls"] == "long_scoreboard 40 %; math_pipe_throttle 20 %; wait 12 %")
        check("n/a metric stays out of the stalls: " + b["stalls"],
              b["stalls"] == "barrier 5 %; wait 2 %; long_scoreboard 1 %")
        check("n/a issue share is NaN: " + b["issue_pct"], b["issue_pct"] == "nan")
        check("a metric not profiled is NaN: " + a["dram_pct"], a["dram_pct"] == "nan")
    md = open(os.path.join(d, "why.md")).read() if r.returncode == 0 else ""
    check("why.md has a header and two rows", md.count("\n") == 4 and "| a | `rs_kernel` | 528 x 256 |" in md)
    check("why.md leaves NaN blank", "| 1 x 128 |  | 2.0 |" in md)
    check("stdout is why.md", r.stdout == md)

    with open(os.path.join(d, "ncu_ms.csv"), "w") as f:
        f.write(table("msecond"))
    r = run(["--dir", d, "ms=1"])
    rows = list(csv.DictReader(open(os.path.join(d, "why.csv")))) if r.returncode == 0 else []
    check("time in us from ms", len(rows) == 2 and abs(float(rows[0]["time_us"]) - 9.5e6) < 1e-3)
    with open(os.path.join(d, "ncu_ns.csv"), "w") as f:
        f.write(table("ns"))
    r = run(["--dir", d, "ns=1"])
    rows = list(csv.DictReader(open(os.path.join(d, "why.csv")))) if r.returncode == 0 else []
    check("time in us from 'ns'", len(rows) == 2 and abs(float(rows[0]["time_us"]) - 9.5) < 1e-9)

    # refusals: one clear message, non-zero exit
    with open(os.path.join(d, "ncu_none.csv"), "w") as f:
        f.write("==PROF== No kernels were profiled.\n")
    r = run(["--dir", d, "none=5"])
    check("no launch at all refused: " + r.stderr, r.returncode != 0 and "no profile holds a launch" in r.stderr)
    r = run(["--dir", d, "none=5", "a=1048576"])
    rows = list(csv.DictReader(open(os.path.join(d, "why.csv")))) if r.returncode == 0 else []
    check("a profile without launches said and left out: " + r.stderr,
          r.returncode == 0 and "ncu_none.csv: no ncu raw table" in r.stderr and len(rows) == 2)
    # a device attribute's text column after CC (its unit empty), as ncu's raw page has
    lines = table().rstrip("\n").split("\n")
    for i in range(3, len(lines)):
        f = next(csv.reader([lines[i]]))
        f.insert(11, "device__attribute_confidential_computing_mode" if i == 3 else "" if i == 4 else "No-CC")
        lines[i] = ",".join('"%s"' % x for x in f)
    with open(os.path.join(d, "ncu_attr.csv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    r = run(["--dir", d, "attr=1048576"])
    check("a text attribute column passed over: " + r.stderr, r.returncode == 0)
    with open(os.path.join(d, "ncu_evil.csv"), "w") as f:
        f.write(table().replace("void rs_kernel<float, 3>", "void rs|`x`<b>|kernel<float, 3>"))
    r = run(["--dir", d, "evil=1048576"])
    md = open(os.path.join(d, "why.md")).read() if r.returncode == 0 else ""
    check("a kernel name that is no identifier written as '?': " + md[-300:],
          "| evil | `?` |" in md and "`x`" not in md and md.count("\n") == 4)
    with open(os.path.join(d, "ncu_unit.csv"), "w") as f:
        f.write(table("fortnight"))
    r = run(["--dir", d, "unit=5"])
    check("unknown time unit refused: " + r.stderr, r.returncode != 0 and "unknown unit" in r.stderr)
    short = table().rstrip("\n").split("\n")
    short[-1] = short[-1].rsplit(",", 3)[0]
    with open(os.path.join(d, "ncu_short.csv"), "w") as f:
        f.write("\n".join(short) + "\n")
    r = run(["--dir", d, "short=5"])
    check("short row refused: " + r.stderr, r.returncode != 0 and "fields under a header" in r.stderr)
    bad = table().replace('"9,500"', '"9.5e"')
    with open(os.path.join(d, "ncu_bad.csv"), "w") as f:
        f.write(bad)
    r = run(["--dir", d, "bad=5"])
    check("a value that is no number refused: " + r.stderr, r.returncode != 0 and "is not a number" in r.stderr)
    for item in ["../a=5", "a/b=5", "a=0", "a=-3", "a", "a=x"]:
        r = run(["--dir", d, item])
        check(f"'{item}' refused: " + r.stderr, r.returncode != 0 and "is not CASE=N" in r.stderr)
    r = run(["--dir", d, "missing=5"])
    check("a missing profile refused: " + r.stderr, r.returncode != 0 and "cannot read" in r.stderr)

    # ncu_why.sh on a stub ncu: --query-metrics knows every metric but the FP64 pipe's; a profile
    # prints the canned table, or fails for the cub cases
    stub = os.path.join(d, "bin")
    os.makedirs(stub)
    canned = os.path.join(d, "canned.csv")
    with open(canned, "w") as f:
        f.write(table())
    known = [h.split(".")[0] for h in HEAD if "__" in h] + [
        "dram__throughput", "dram__bytes_read", "smsp__inst_executed", "sm__warps_active",
        "launch__registers_per_thread", "launch__shared_mem_per_block_dynamic", "sm__inst_executed_pipe_lsu"]
    with open(os.path.join(stub, "ncu"), "w") as f:
        f.write("#!/bin/sh\n"
                "if [ \"$1\" = --query-metrics ]; then printf 'Device X\\n---\\nMetric Name  Description\\n'\n"
                + "".join(f"  echo '{k}  some text'\n" for k in known) +
                "  exit 0; fi\n"
                f"echo \"$@\" >> '{d}/calls.txt'\n"
                "case \"$*\" in *'--variants cub'*) echo 'ncu failed' >&2; exit 1;; esac\n"
                f"cat '{canned}'\n")
    os.chmod(os.path.join(stub, "ncu"), 0o755)
    fake = os.path.join(d, "sumlab")
    with open(fake, "w") as f:
        f.write("#!/bin/sh\nexit 0\n")
    os.chmod(fake, 0o755)
    env = dict(os.environ, PATH=stub + os.pathsep + os.environ.get("PATH", ""))
    out = os.path.join(d, "run")
    r = subprocess.run(["bash", script, fake, out, "sum_f32_2e20_cub", "sum_f32_2e20_reproducible",
                        "var_rows_bf16_32768x4096_correct"], capture_output=True, text=True, env=env)
    check("ncu_why.sh exits 0 with one case failed: " + r.stderr, r.returncode == 0)
    check("the unknown metric is said: " + r.stderr, "this ncu has no sm__pipe_fp64_cycles_active" in r.stderr)
    check("the failed case is said: " + r.stderr, "ncu failed on sum_f32_2e20_cub" in r.stderr)
    calls = open(os.path.join(d, "calls.txt")).read().splitlines() if os.path.exists(os.path.join(d, "calls.txt")) else []
    check("three cases profiled, the others not: %d" % len(calls), len(calls) == 3)
    check("the unknown metric left out of --metrics", calls and all("sm__pipe_fp64" not in c for c in calls))
    check("a known metric asked for", calls and all("smsp__thread_inst_executed.sum" in c for c in calls))
    check("one run's launches profiled (cub: two)",
          len(calls) == 3 and "regex:Reduce --launch-count 2 " in calls[0]
          and "regex:rs_kernel --launch-count 1 " in calls[1])
    rows = list(csv.DictReader(open(os.path.join(out, "why.csv")))) if os.path.exists(os.path.join(out, "why.csv")) else []
    check("why.csv holds the two profiled cases' launches: %d" % len(rows), len(rows) == 4)
    check("row case's values a launch: 32768 x 4096",
          len(rows) == 4 and rows[2]["case"] == "var_rows_bf16_32768x4096_correct"
          and abs(float(rows[2]["inst_per_value"]) - 33554432 / 134217728) < 1e-12)
    r = subprocess.run(["bash", script, fake, os.path.join(d, "run2"), "sum_f32_2e20_cub"],
                       capture_output=True, text=True, env=env)
    check("no case profiled: non-zero exit: " + r.stderr, r.returncode != 0 and "no case was profiled" in r.stderr)
    n_calls = len(open(os.path.join(d, "calls.txt")).read().splitlines())
    r = subprocess.run(["bash", script, fake, os.path.join(d, "run4"), "sum_f32_2e20_reproducible", "sum_f32_2^20"],
                       capture_output=True, text=True, env=env)
    check("an unknown case name refused before any profile: " + r.stderr,
          r.returncode == 2 and "'sum_f32_2^20' is not a case" in r.stderr
          and len(open(os.path.join(d, "calls.txt")).read().splitlines()) == n_calls)
    r = subprocess.run(["bash", script, fake, os.path.join(d, "run3")], capture_output=True, text=True,
                       env=dict(env, NCU_WHY_SECONDS="abc"))
    check("a bad NCU_WHY_SECONDS refused: " + r.stderr, r.returncode == 2 and "NCU_WHY_SECONDS" in r.stderr)

print("tncu_why: ", end="")
sys.exit(done())
