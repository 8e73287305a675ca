#!/usr/bin/env python3
"""targets.py: the open issues' performance targets (issues 31-35, BENCHMARKS.md), measured by
`sumlab bench` (and, for the targets against PyTorch's own reductions, bench_moments.py) in one
pass and judged against their thresholds.

  targets.py plan [--only ISSUES]                     the commands, one a line
  targets.py run --sumlab PATH --out DIR [--only ISSUES] [--seconds S] [--pythonpath DIR]
                                                      run them: DIR/GROUP.csv (stdout), GROUP.err
                                                      (stderr), DIR/commands.txt; then judge DIR
                                                      (--pythonpath: where the sumlab package is,
                                                      for bench_moments.py)
  targets.py judge DIR [--only ISSUES] [--unmet] [--format md|csv]
                                                      each target against the CSV files in DIR
  targets.py compare OLD NEW [--only ISSUES] [--changed] [--format md|csv]
                                                      each target judged on OLD's files and NEW's:
                                                      both values, the change, newly met or no
                                                      longer met (--changed: only those whose
                                                      state changed)

A target is a measured value (ratio_cub: CUB's median time over the variant's, paired run by run;
ratio_read: the streaming read's over the variant's; `vs V`: variant V's median time over this
one's, from the same file; `torch`: bench_moments.py's ratio_torch_op, PyTorch's time for the
same operation on the same tensor over the package's) and its threshold; met when the value
reaches it. A row whose own `check` is not ok (a result outside its bound, a deterministic
variant with several results: "check FAILED"; a file without the column: "unchecked") is never
judged met. The files' `# gpu_name` and `# git_sha` lines name the machine and commit measured:
the judgement says so, and says when it is not an H200 (the targets' machine). The 4 GiB inputs (2^30 float32, 2^29
float64) are judged against the thresholds of 2^28. The targets stated against PyTorch only as
a consequence of the read ceiling (lse, rows) are judged by the read. The judgement's exit
status (and compare's) is 0 whether targets are met or not; 2 for bad usage or a DIR without any
of the plan's files.
"""
import argparse
import csv
import os
import re
import subprocess
import sys
import time

N3 = "2^20,2^24,2^28"
N20, N24, N28, N29, N30 = 1 << 20, 1 << 24, 1 << 28, 1 << 29, 1 << 30
HERE = os.path.dirname(os.path.abspath(__file__))
TORCH_NAMES = {"f32": "float32", "f64": "float64", "f16": "float16", "bf16": "bfloat16"}
FORMATS = ("f32", "f64", "f16", "bf16")
FAMILIES = ("uniform", "normal", "ill", "subnormal", "wide")


def family_args(dt, fam):
    """The dataset options of a family in a format (BENCHMARKS.md's five families of issue 35)."""
    if fam == "ill":
        return ["--dataset", "ill-conditioned", "--param", "cond=" + ("1e3" if dt == "f16" else "1e16")]
    if fam == "wide":   # the full-range family whose exact sum is finite at 2^28
        emax = {"f32": "116", "bf16": "116", "f64": "1013", "f16": "2"}[dt]
        return ["--dataset", "log-uniform", "--param", "emin=-1100", "--param", "emax=" + emax,
                "--param", "subnormals=1"]
    return ["--dataset", fam]


ROWS = ["--axis", "-1", "--rows", "4096,32768", "--n", "32768,4096", "--pairs"]


def build_plan():
    """(groups, checks): groups[name] = (issue, args, kind): kind 'bench' (sumlab bench's
    arguments) or 'torch' (bench_moments.py's); a check is a dict: issue, target, group, dtype,
    case, variant, n, rows (0: 1-D), metric ('cub', 'read', ('vs', V) or ('torch', OP)), need."""
    groups, checks = {}, []

    def check(issue, target, group, dt, case, variant, n, metric, need, rows=0):
        checks.append(dict(issue=issue, target=target, group=group, dtype=dt, case=case, variant=variant,
                           n=n, rows=rows, metric=metric, need=need))

    # issue 35: the sum's trusted variants at every size, format and family
    for dt in FORMATS:
        half = dt in ("f16", "bf16")
        for fam in FAMILIES:
            g = "sum_%s_%s" % (dt, fam)
            v = ["reproducible", "superacc", "cub"]
            if half:
                v.append("cub-f32acc")
            if fam == "uniform":
                v.append("kahan")
                if dt != "f64":
                    v.append("fp64-acc")
            groups[g] = (35, ["--n", N3, "--dtype", dt, "--reps", "20", "--variants", ",".join(v)] +
                         family_args(dt, fam), "bench")
            for n, r, s in ((N20, 0.90, 0.85), (N24, 0.97, 0.95), (N28, 0.97, 0.95)):
                check(35, "reproducible >= %.2fx CUB" % r, g, dt, fam, "reproducible", n, "cub", r)
                check(35, "superacc >= %.2fx CUB" % s, g, dt, fam, "superacc", n, "cub", s)
                if half:
                    check(35, "reproducible >= 1.0x cub-f32acc", g, dt, fam, "reproducible", n,
                          ("vs", "cub-f32acc"), 1.0)
            if fam == "uniform":
                check(35, "kahan >= 0.97x CUB", g, dt, fam, "kahan", N28, "cub", 0.97)
                if dt != "f64":
                    check(35, "fp64-acc >= 0.97x CUB", g, dt, fam, "fp64-acc", N28, "cub", 0.97)
    # issue 35: 4 GiB inputs (2^30 float32, 2^29 float64), the same ratios as at 2^28
    for dt, n, k in (("f32", N30, "2^30"), ("f64", N29, "2^29")):
        g = "sum_%s_4gib" % dt
        v = ["reproducible", "superacc", "cub", "kahan"] + (["fp64-acc"] if dt == "f32" else [])
        groups[g] = (35, ["--n", k, "--dtype", dt, "--reps", "10", "--variants", ",".join(v),
                          "--dataset", "uniform"], "bench")
        for variant, need in (("reproducible", 0.97), ("superacc", 0.95), ("kahan", 0.97), ("fp64-acc", 0.97)):
            if variant in v:
                check(35, "%s >= %.2fx CUB" % (variant, need), g, dt, "uniform", variant, n, "cub", need)
    # issue 31: the fused statistics and the correctly rounded variance at 2^28
    for dt in ("f32", "f64", "bf16"):
        g = "var_" + dt
        groups[g] = (31, ["--op", "var", "--n", "2^28", "--dtype", dt, "--reps", "10", "--dataset", "normal",
                          "--variants", "fused,correct"], "bench")
        check(31, "fused >= 0.97x the read", g, dt, "normal", "fused", N28, "read", 0.97)
        if dt != "bf16":
            check(31, "var correct >= 0.95x CUB", g, dt, "normal", "correct", N28, "cub", 0.95)
    # issue 31 against torch.var on the same tensor (bench_moments.py, N(0, 1))
    groups["torch_var"] = (31, ["--n", "2^28", "--reps", "10", "--dtypes", "float32,float64,bfloat16,float16",
                                "--ops", "var:correct,var:welford,var:two-pass"], "torch")
    for dt in ("f32", "f64", "bf16", "f16"):
        check(31, "var correct >= 1.0x torch.var", "torch_var", dt, "normal", "correct", N28, ("torch", "var"), 1.0)
    for variant in ("welford", "two-pass"):
        check(31, "var %s >= 1.5x torch.var" % variant, "torch_var", "bf16", "normal", variant, N28,
              ("torch", "var"), 1.5)
    # issue 32: correctly rounded dot and norm2 at 2^28 against cuBLAS and the read
    for dt in ("f32", "f64", "bf16"):
        if dt != "bf16":   # bfloat16's target is torch.dot's time (torch_dotnorm below)
            g = "dot_" + dt
            groups[g] = (32, ["--op", "dot", "--n", "2^28", "--dtype", dt, "--reps", "10", "--dataset",
                              "dot-random", "--variants", "correct,cublas"], "bench")
            check(32, "dot correct >= 0.95x the two-array read", g, dt, "dot-random", "correct", N28, "read", 0.95)
            check(32, "dot correct >= 1.0x cuBLAS dot", g, dt, "dot-random", "correct", N28, ("vs", "cublas"), 1.0)
        g = "norm2_" + dt
        groups[g] = (32, ["--op", "norm2", "--n", "2^28", "--dtype", dt, "--reps", "10", "--dataset", "normal",
                          "--variants", "correct,cublas"], "bench")
        check(32, "norm2 correct >= 1.0x cuBLAS nrm2", g, dt, "normal", "correct", N28, ("vs", "cublas"), 1.0)
    # issue 32 against torch.dot and torch.linalg.vector_norm on the same tensors
    groups["torch_dotnorm"] = (32, ["--n", "2^28", "--reps", "10", "--dtypes", "float32,float64,bfloat16",
                                    "--ops", "dot:correct,norm2:correct"], "torch")
    check(32, "dot correct >= 1.0x torch.dot", "torch_dotnorm", "bf16", "normal", "correct", N28, ("torch", "dot"), 1.0)
    for dt in ("f32", "f64", "bf16"):
        check(32, "norm2 correct >= 1.0x torch.linalg.vector_norm", "torch_dotnorm", dt, "normal", "correct", N28,
              ("torch", "norm2"), 1.0)
    # issue 33: lse at 2^28 against the read
    for dt in ("f32", "bf16"):
        g = "lse_" + dt
        groups[g] = (33, ["--op", "lse", "--n", "2^28", "--dtype", dt, "--reps", "10", "--dataset", "logits",
                          "--variants", "online,accurate,reproducible"], "bench")
        check(33, "online >= 0.90x the read", g, dt, "logits", "online", N28, "read", 0.90)
        check(33, "accurate >= 0.80x the read", g, dt, "logits", "accurate", N28, "read", 0.80)
        check(33, "reproducible >= 0.80x the read", g, dt, "logits", "reproducible", N28, "read", 0.80)
    # issue 34: order-independent rows (4096 x 32768 and 32768 x 4096) against the read
    for dt in ("f32", "bf16"):
        for op, variant, extra in (("sum", "reproducible", []), ("var", "correct", []),
                                   ("lse", "reproducible", ["--dataset", "logits"])):
            g = "rows_%s_%s" % (op, dt)
            groups[g] = (34, ["--op", op] + ROWS + ["--dtype", dt, "--reps", "10", "--variants", variant] + extra,
                         "bench")
            for rows, n in ((4096, 32768), (32768, 4096)):
                check(34, "rows %s %s >= 0.90x the read" % (op, variant), g, dt, "%dx%d" % (rows, n),
                      variant, n, "read", 0.90, rows=rows)
    return groups, checks


def parse_only(text):
    if text is None:
        return None
    out = set()
    for item in text.split(","):
        if not re.fullmatch(r"3[1-5]", item.strip()):
            print("targets.py: --only takes issue numbers 31-35, comma-separated (got '%s')" % item, file=sys.stderr)
            sys.exit(2)
        out.add(int(item))
    return out


def bench_csv(path):
    """(rows, provenance): the data rows of a sumlab bench (or bench_moments.py) CSV, its stderr
    lines skipped, and its '# key: value' provenance lines as a dict (gpu_name, git_sha, ...)."""
    prov, lines = {}, []
    with open(path, newline="") as f:
        for ln in f:
            if ln.startswith("#"):
                key, sep, value = ln[1:].partition(":")
                if sep:
                    prov.setdefault(key.strip(), value.strip())
            elif not ln.startswith("sumlab bench:"):
                lines.append(ln)
    return (list(csv.DictReader(lines)) if lines else []), prov


def machines(provs):
    """'GPU at SHA' for each distinct (gpu_name, git_sha) of the files read, in order"""
    seen = []
    for p in provs:
        sha = p.get("git_sha") or ""
        m = "%s at %s" % (p.get("gpu_name") or "an unnamed GPU", sha[:7] if sha else "an unknown commit")
        if m not in seen:
            seen.append(m)
    return seen


def num(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def find_row(rows, variant, n, nrows, dtype):
    for r in rows:
        if r.get("variant") != variant or num(r.get("n")) != n or r.get("dtype", dtype) != dtype:
            continue
        if nrows and num(r.get("rows")) != nrows:
            continue
        return r
    return None


def find_torch_row(rows, op, variant, n, dtype):
    """bench_moments.py's row of the package's variant of op (impl sumlab[VARIANT])"""
    for r in rows:
        if (r.get("op") == op and r.get("impl") == "sumlab[%s]" % variant and num(r.get("n")) == n
                and r.get("dtype") == TORCH_NAMES[dtype]):
            return r
    return None


def judge_one(c, rows):
    """(value or None, state): state 'met', 'unmet', 'no data', 'check FAILED' or 'unchecked'."""
    m = c["metric"]
    torch = isinstance(m, tuple) and m[0] == "torch"
    r = (find_torch_row(rows, m[1], c["variant"], c["n"], c["dtype"]) if torch
         else find_row(rows, c["variant"], c["n"], c["rows"], c["dtype"]))
    if r is None:
        return None, "no data"
    if r.get("check") != "ok":   # a file from before the check column: never met either
        return None, "unchecked" if r.get("check") is None else "check FAILED"
    if torch:
        v = num(r.get("ratio_torch_op"))
    elif m == "cub":
        v = num(r.get("ratio_cub"))
    elif m == "read":
        v = num(r.get("ratio_read"))
    else:
        ref = find_row(rows, m[1], c["n"], c["rows"], c["dtype"])
        if ref is None:
            return None, "no data"
        t, tr = num(r.get("time_ms_median")), num(ref.get("time_ms_median"))
        v = tr / t if t and tr and t > 0 else None
    if v is None or v != v:
        return None, "no data"
    return v, ("met" if v >= c["need"] else "unmet")


def pow2(n):
    k = n.bit_length() - 1
    return "2^%d" % k if n == 1 << k else str(n)


def judge_results(plan, directory, only):
    """([(check, value, state)], files, ran): each target of the plan (of the issues in only)
    judged on DIR's files; files: {group: (rows, provenance)} of the files present; ran: the
    machines and commits they name. None (said on stderr) when DIR holds none of the plan's files
    or one cannot be read."""
    groups, checks = plan
    present = {g for g in groups if os.path.isfile(os.path.join(directory, g + ".csv"))}
    if not present:
        print("targets.py: %s holds none of the plan's files (GROUP.csv; 'targets.py plan' lists them)"
              % directory, file=sys.stderr)
        return None
    cache, results = {}, []
    for c in checks:
        if only and c["issue"] not in only:
            continue
        g = c["group"]
        if g not in cache:
            path = os.path.join(directory, g + ".csv")
            try:
                cache[g] = bench_csv(path) if g in present else ([], {})
            except (OSError, UnicodeDecodeError, csv.Error) as e:
                print("targets.py: %s: %s" % (path, e), file=sys.stderr)
                return None
        v, state = judge_one(c, cache[g][0])
        results.append((c, v, state))
    files = {g: cache[g] for g in cache if g in present}
    return results, files, machines(files[g][1] for g in files)


def not_h200(ran, what=""):
    """the machines of ran that are not an H200, said on stderr: the targets are the H200's, and a
    ratio measured elsewhere is said to be (an H100 has the same SMs and clocks but 30 % less
    memory bandwidth)"""
    elsewhere = [m for m in ran if "H200" not in m]
    if elsewhere:
        print("targets.py: %smeasured on %s, not an H200: these are not the H200 targets' values"
              % (what, "; ".join(elsewhere)), file=sys.stderr)
    return elsewhere


def target_n(c):
    return pow2(c["n"]) if not c["rows"] else "%d x %d" % (c["rows"], c["n"])


def say_counts(pairs, order=None):
    """'targets.py: issue N: k STATE, ...' on stderr for each issue of the (issue, state) pairs:
    the states in order (those absent left out), or alphabetically without one."""
    counts = {}
    for issue, state in pairs:
        counts.setdefault(issue, {}).setdefault(state, 0)
        counts[issue][state] += 1
    for issue in sorted(counts):
        seen = [st for st in order if st in counts[issue]] if order else sorted(counts[issue])
        print("targets.py: issue %d: %s" % (issue, ", ".join("%d %s" % (counts[issue][st], st) for st in seen)),
              file=sys.stderr)


def judge(plan, directory, only, unmet_only, fmt, out=sys.stdout):
    got = judge_results(plan, directory, only)
    if got is None:
        return 2
    results, files, ran = got
    shown = [x for x in results if not unmet_only or x[2] != "met"]
    elsewhere = not_h200(ran)
    if fmt == "csv":
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["issue", "target", "dtype", "case", "n", "rows", "value", "need", "state", "file", "gpu"])
        for c, v, state in shown:
            gpu = files[c["group"]][1].get("gpu_name", "") if c["group"] in files else ""
            w.writerow([c["issue"], c["target"], c["dtype"], c["case"], c["n"], c["rows"],
                        "" if v is None else "%.4f" % v, c["need"], state, c["group"] + ".csv", gpu])
    else:
        if ran:
            out.write("Measured on %s%s.\n\n" % ("; ".join(ran),
                                                 " (**not an H200**: not the targets' machine)" if elsewhere else ""))
        out.write("| issue | target | dtype | case | n | value | state |\n|---|---|---|---|---|---:|---|\n")
        for c, v, state in shown:
            out.write("| %d | %s | %s | %s | %s | %s | %s |\n" % (
                c["issue"], c["target"], c["dtype"], c["case"], target_n(c), "-" if v is None else "%.3f" % v,
                "**met**" if state == "met" else state))
    say_counts([(c["issue"], state) for c, v, state in results],
               ("met", "unmet", "check FAILED", "unchecked", "no data"))
    return 0


def compare(plan, old_dir, new_dir, only, changed_only, fmt, out=sys.stdout):
    """Each target judged on OLD's files and on NEW's, side by side: the two values, NEW's over
    OLD's less one (change), and the state now and before. Machines that differ between the two
    (an H100 against an H200) are said: their ratios are not comparable."""
    got = [judge_results(plan, d, only) for d in (old_dir, new_dir)]
    if None in got:
        return 2
    (old, _, ran_old), (new, _, ran_new) = got
    for what, ran in (("OLD ", ran_old), ("NEW ", ran_new)):
        not_h200(ran, what)
    gpus = [sorted({m.rsplit(" at ", 1)[0] for m in ran}) for ran in (ran_old, ran_new)]
    if gpus[0] != gpus[1]:
        print("targets.py: OLD was measured on %s, NEW on %s: a change between them is the machines' as "
              "much as the code's" % (", ".join(gpus[0]) or "no named GPU", ", ".join(gpus[1]) or "no named GPU"),
              file=sys.stderr)
    rows, states = [], []
    for (c, v0, s0), (_, v1, s1) in zip(old, new):
        change = v1 / v0 - 1.0 if v0 and v1 is not None else None
        if s1 == "met" and s0 != "met":
            verdict = "newly met"
        elif s0 == "met" and s1 != "met":
            verdict = "no longer met"
        else:
            verdict = "still " + s1 if s0 == s1 else "%s (was %s)" % (s1, s0)
        states.append((c["issue"], verdict))
        if changed_only and s0 == s1:
            continue
        rows.append((c, v0, v1, change, verdict))
    if fmt == "csv":
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["issue", "target", "dtype", "case", "n", "rows", "old", "new", "change", "need", "verdict"])
        for c, v0, v1, change, verdict in rows:
            w.writerow([c["issue"], c["target"], c["dtype"], c["case"], c["n"], c["rows"],
                        "" if v0 is None else "%.4f" % v0, "" if v1 is None else "%.4f" % v1,
                        "" if change is None else "%.4f" % change, c["need"], verdict])
    else:
        out.write("OLD: %s. NEW: %s.\n\n" % ("; ".join(ran_old), "; ".join(ran_new)))
        out.write("| issue | target | dtype | case | n | old | new | change | verdict |\n"
                  "|---|---|---|---|---|---:|---:|---:|---|\n")
        for c, v0, v1, change, verdict in rows:
            out.write("| %d | %s | %s | %s | %s | %s | %s | %s | %s |\n" % (
                c["issue"], c["target"], c["dtype"], c["case"], target_n(c),
                "-" if v0 is None else "%.3f" % v0, "-" if v1 is None else "%.3f" % v1,
                "-" if change is None else "%+.1f %%" % (100.0 * change),
                "**%s**" % verdict if verdict in ("newly met", "no longer met") else verdict))
    say_counts(states)
    return 0


def main(argv):
    ap = argparse.ArgumentParser(prog="targets.py", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("plan")
    p.add_argument("--only")
    p = sub.add_parser("run")
    p.add_argument("--sumlab", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--only")
    p.add_argument("--seconds", type=int, default=0, help="start no group after S seconds (0: no limit)")
    p.add_argument("--unmet", action="store_true")
    p.add_argument("--pythonpath", help="the sumlab package's folder (build/python), for bench_moments.py")
    p = sub.add_parser("judge")
    p.add_argument("dir")
    p.add_argument("--only")
    p.add_argument("--unmet", action="store_true", help="only the targets not met")
    p.add_argument("--format", choices=("md", "csv"), default="md")
    p = sub.add_parser("compare")
    p.add_argument("old")
    p.add_argument("new")
    p.add_argument("--only")
    p.add_argument("--changed", action="store_true", help="only the targets whose state changed")
    p.add_argument("--format", choices=("md", "csv"), default="md")
    a = ap.parse_args(argv)
    only = parse_only(a.only)
    plan = build_plan()
    groups = plan[0]
    todo = [(g, args, kind) for g, (issue, args, kind) in groups.items() if not only or issue in only]
    if a.cmd == "plan":
        for g, args, kind in todo:
            what = "sumlab bench" if kind == "bench" else "python3 experiments/bench_moments.py"
            print("%s %s > %s.csv" % (what, " ".join(args), g))
        return 0
    if a.cmd == "judge":
        if not os.path.isdir(a.dir):
            print("targets.py: %s is not a directory" % a.dir, file=sys.stderr)
            return 2
        return judge(plan, a.dir, only, a.unmet, a.format)
    if a.cmd == "compare":
        for d in (a.old, a.new):
            if not os.path.isdir(d):
                print("targets.py: %s is not a directory" % d, file=sys.stderr)
                return 2
        return compare(plan, a.old, a.new, only, a.changed, a.format)
    if not (os.path.isfile(a.sumlab) and os.access(a.sumlab, os.X_OK)):
        print("targets.py: --sumlab %s is not an executable file" % a.sumlab, file=sys.stderr)
        return 2
    if a.seconds < 0:
        print("targets.py: --seconds must be >= 0", file=sys.stderr)
        return 2
    if a.pythonpath is not None and not os.path.isdir(a.pythonpath):
        print("targets.py: --pythonpath %s is not a directory" % a.pythonpath, file=sys.stderr)
        return 2
    env = dict(os.environ)
    if a.pythonpath:
        env["PYTHONPATH"] = os.path.abspath(a.pythonpath) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    os.makedirs(a.out, exist_ok=True)
    t0 = time.monotonic()
    with open(os.path.join(a.out, "commands.txt"), "a") as log:
        for g, args, kind in todo:
            if a.seconds and time.monotonic() - t0 > a.seconds:
                print("targets.py: %d s passed: %s and the groups after it not run" % (a.seconds, g), file=sys.stderr)
                break
            if kind == "bench":
                cmd = [a.sumlab, "bench"] + args
            else:
                cmd = [sys.executable, os.path.join(HERE, "bench_moments.py")] + args
            pre = "PYTHONPATH=%s " % os.path.abspath(a.pythonpath) if kind == "torch" and a.pythonpath else ""
            log.write(pre + " ".join(cmd) + "  > %s.csv\n" % g)
            log.flush()
            with open(os.path.join(a.out, g + ".csv"), "w") as fo, open(os.path.join(a.out, g + ".err"), "w") as fe:
                s0 = time.monotonic()
                rc = subprocess.run(cmd, stdout=fo, stderr=fe, env=env).returncode
            print("targets.py: %s rc=%d in %.1f s" % (g, rc, time.monotonic() - s0), file=sys.stderr)
    return judge(plan, a.out, only, a.unmet, "md")


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:   # a reader that stopped early (| head): no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
