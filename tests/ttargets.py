#!/usr/bin/env python3
"""ttargets.py: experiments/targets.py (the issues' performance targets) without a GPU: its plan,
its judgement of bench CSV files written here (values, thresholds, rows matched by n and by row
count, a row whose check failed, missing rows and files; bench_moments.py's rows against
PyTorch; the 4 GiB inputs), `compare` of two such folders (newly met, no longer met, the
change, the machines on each side), and `run` end to end on a stub sumlab (and a bench_moments.py that
fails without a GPU: its group has no data, the others are judged).
  usage: ttargets.py [SOURCE_DIR]"""
import csv
import io
import os
import subprocess
import sys
import tempfile

src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
tool = os.path.join(src, "experiments", "targets.py")
fails = passes = 0


def check(what, ok):
    global fails, passes
    if ok:
        passes += 1
    else:
        fails += 1
        print("FAIL: " + what, file=sys.stderr)


def run(*args, **kw):
    return subprocess.run([sys.executable, tool] + list(args), capture_output=True, text=True, **kw)


HEAD1 = ("variant,dtype,n,reps,time_ms_median,time_ms_min,time_ms_max,gbps,ratio_cub,ratio_read,distinct,"
         "result_hex,block,grid,items,cub_ms_median,read_ms_median,abs_err_max,bound_abs,check,dataset")
HEADR = ("op,variant,dtype,rows,n,reps,time_ms_median,gbps,ratio_read,read_ms_median,ratio_cub,cub_ms_median,"
         "rows_ulps_median,rows_ulps_max,block,grid,backend,det_class,check")


def row1(variant, dt, n, t, rc, rr, ok="ok"):
    return "%s,%s,%d,20,%s,0,0,0,%s,%s,1,0x1p+0,256,1,4,0,0,0,1,%s,uniform" % (variant, dt, n, t, rc, rr, ok)


def write(path, lines, gpu="NVIDIA H200"):
    with open(path, "w") as f:
        f.write("# sumlab_version: 0.2.0\n# git_sha: 0123456789abcdef\n# argv: sumlab bench ...\n"
                "# gpu_name: %s\n" % gpu)
        f.write("\n".join(lines) + "\n")


def states(out):
    """{(target, dtype, case, n, rows): (value, state)} from judge --format csv"""
    got = {}
    for r in csv.DictReader(io.StringIO(out)):
        got[(r["target"], r["dtype"], r["case"], int(r["n"]), int(r["rows"]))] = (r["value"], r["state"])
    return got


N20, N24, N28, N30 = 1 << 20, 1 << 24, 1 << 28, 1 << 30
with tempfile.TemporaryDirectory() as w:
    # ---- plan -------------------------------------------------------------------------------
    p = run("plan")
    lines = p.stdout.splitlines()
    check("plan exits 0 (%d)" % p.returncode, p.returncode == 0)
    check("plan: 40 commands (%d)" % len(lines), len(lines) == 40)
    check("plan: each line a sumlab bench or bench_moments.py command into GROUP.csv",
          all(ln.startswith(("sumlab bench ", "python3 experiments/bench_moments.py ")) and ln.endswith(".csv")
              for ln in lines))
    check("plan: two bench_moments.py groups (torch.var; torch.dot and vector_norm)",
          sorted(ln.rsplit("> ", 1)[1] for ln in lines if "bench_moments.py" in ln) == ["torch_dotnorm.csv",
                                                                                        "torch_var.csv"])
    check("plan: the 4 GiB inputs, 2^30 float32 and 2^29 float64",
          any("--n 2^30 --dtype f32" in ln and ln.endswith("sum_f32_4gib.csv") for ln in lines)
          and any("--n 2^29 --dtype f64" in ln and ln.endswith("sum_f64_4gib.csv") for ln in lines))
    names = [ln.rsplit("> ", 1)[1] for ln in lines]
    check("plan: the groups' files are distinct", len(set(names)) == len(names))
    check("plan: the finite full-range family of float64 (emax=1013)",
          any("sum_f64_wide.csv" in ln and "emax=1013" in ln for ln in lines))
    p = run("plan", "--only", "33")
    check("plan --only 33: the two lse groups", sorted(ln.rsplit("> ", 1)[1] for ln in p.stdout.splitlines())
          == ["lse_bf16.csv", "lse_f32.csv"])
    for bad in ("36", "x", "31,,32"):
        p = run("plan", "--only", bad)
        check("plan --only %s: exit 2 with one line (%d, %r)" % (bad, p.returncode, p.stderr),
              p.returncode == 2 and p.stderr.count("\n") == 1 and p.stdout == "")

    # ---- judge --------------------------------------------------------------------------------
    d = os.path.join(w, "d")
    os.mkdir(d)
    p = run("judge", d)
    check("judge of a folder without the plan's files: exit 2 (%d)" % p.returncode, p.returncode == 2)
    p = run("judge", os.path.join(w, "none"))
    check("judge of no folder: exit 2 (%d)" % p.returncode, p.returncode == 2)
    # bfloat16 uniform: reproducible met at 2^28 (0.980 >= 0.97), unmet at 2^24 (0.960), its 2^20 row
    # failed its check; superacc has no row at 2^28; cub-f32acc's times for the `vs` target
    write(os.path.join(d, "sum_bf16_uniform.csv"), [
        HEAD1, "sumlab bench: n = 1048576: read ceiling 0.004 ms",
        row1("reproducible", "bf16", N28, "0.100", "0.9800", "0.95"),
        row1("cub-f32acc", "bf16", N28, "0.110", "0.9000", "0.90"),
        row1("reproducible", "bf16", N24, "0.020", "0.9600", "0.90"),
        row1("cub-f32acc", "bf16", N24, "0.019", "0.9300", "0.90"),
        row1("reproducible", "bf16", N20, "0.010", "0.9900", "0.50", ok="FAILED"),
        row1("superacc", "bf16", N24, "0.030", "0.9500", "0.90"),
        row1("superacc", "bf16", N20, "0.010", "0.8499", "0.50"),
        row1("kahan", "bf16", N28, "0.100", "0.9700", "0.95"),
    ])
    write(os.path.join(d, "rows_sum_f32.csv"), [
        HEADR,
        "sum,reproducible,f32,4096,32768,10,0.2,0,0.8900,0.18,0.9,0.19,0,0,256,8,gpu,order-independent,ok",
        "sum,reproducible,f32,32768,4096,10,0.2,0,0.9100,0.18,0.9,0.19,0,0,256,8,gpu,order-independent,ok",
    ])
    write(os.path.join(d, "norm2_f64.csv"), [
        HEAD1, row1("correct", "f64", N28, "0.50", "0.99", "0.98"), row1("cublas", "f64", N28, "0.60", "0.8", "0.8")])
    # bench_moments.py's rows (no '#' lines): correct var met in float32, unmet in float64, its
    # bfloat16 row failed its check; welford 1.6 met, two-pass 1.4 unmet; float16 absent
    with open(os.path.join(d, "torch_var.csv"), "w") as f:
        f.write("# sumlab_version: 0.2.0\n# git_sha: 0123456789abcdef\n# torch_version: 2.11.0\n"
                "# gpu_name: NVIDIA H200\n"
                "dtype,n,op,impl,time_ms_median,gbps,ratio_torch_op,ratio_torch_sum,check\n"
                "float32,%d,sum,torch.sum,0.25,4000,1.0000,1.0000,-\n"
                "float32,%d,var,torch.var,0.33,3000,1.0000,0.7500,-\n"
                "float32,%d,var,sumlab[correct],0.26,4000,1.2700,0.9600,ok\n"
                "float64,%d,var,sumlab[correct],0.52,4000,0.9900,0.9400,ok\n"
                "bfloat16,%d,var,sumlab[correct],0.14,4000,2.2000,0.9400,FAILED\n"
                "bfloat16,%d,var,sumlab[welford],0.19,4000,1.6000,0.7000,ok\n"
                "bfloat16,%d,var,sumlab[two-pass],0.22,4000,1.4000,0.6000,ok\n"
                "bfloat16,%d,var,torch.var,0.31,4000,1.0000,0.4300,-\n" % ((N28,) * 8))
    write(os.path.join(d, "sum_f32_4gib.csv"), [
        HEAD1, row1("reproducible", "f32", N30, "0.95", "0.9870", "0.98"), row1("superacc", "f32", N30, "0.96", "0.9400", "0.97"),
        row1("reproducible", "f32", N28, "0.24", "0.5000", "0.98")])
    p = run("judge", d, "--format", "csv")
    check("judge exits 0 whether met or not (%d: %s)" % (p.returncode, p.stderr), p.returncode == 0)
    g = states(p.stdout)
    R, S = "reproducible >= 0.97x CUB", "superacc >= 0.95x CUB"
    check("reproducible bf16 uniform 2^28 0.980: met", g.get((R, "bf16", "uniform", N28, 0)) == ("0.9800", "met"))
    check("reproducible bf16 uniform 2^24 0.960: unmet", g.get((R, "bf16", "uniform", N24, 0)) == ("0.9600", "unmet"))
    check("reproducible bf16 uniform 2^20: its row's check failed, never met",
          g.get(("reproducible >= 0.90x CUB", "bf16", "uniform", N20, 0)) == ("", "check FAILED"))
    check("superacc bf16 uniform 2^28: no row, no data", g.get((S, "bf16", "uniform", N28, 0)) == ("", "no data"))
    check("superacc bf16 uniform 2^24 0.950 >= 0.95: met", g.get((S, "bf16", "uniform", N24, 0)) == ("0.9500", "met"))
    check("superacc bf16 uniform 2^20 0.8499 < 0.85: unmet",
          g.get(("superacc >= 0.85x CUB", "bf16", "uniform", N20, 0)) == ("0.8499", "unmet"))
    V = "reproducible >= 1.0x cub-f32acc"
    check("vs cub-f32acc at 2^28: 0.110 / 0.100 = 1.1, met", g.get((V, "bf16", "uniform", N28, 0)) == ("1.1000", "met"))
    check("vs cub-f32acc at 2^24: 0.019 / 0.020 = 0.95, unmet",
          g.get((V, "bf16", "uniform", N24, 0)) == ("0.9500", "unmet"))
    check("kahan bf16 2^28 0.970: met", g.get(("kahan >= 0.97x CUB", "bf16", "uniform", N28, 0)) == ("0.9700", "met"))
    check("fp64-acc bf16: no row, no data", g.get(("fp64-acc >= 0.97x CUB", "bf16", "uniform", N28, 0)) == ("", "no data"))
    check("a group whose file is absent: no data (float32 normal)", g.get((R, "f32", "normal", N28, 0)) == ("", "no data"))
    RS = "rows sum reproducible >= 0.90x the read"
    check("rows matched by their count: 4096 x 32768 0.89 unmet",
          g.get((RS, "f32", "4096x32768", 32768, 4096)) == ("0.8900", "unmet"))
    check("rows matched by their count: 32768 x 4096 0.91 met",
          g.get((RS, "f32", "32768x4096", 4096, 32768)) == ("0.9100", "met"))
    check("norm2 correct vs cuBLAS: 0.60 / 0.50 = 1.2, met",
          g.get(("norm2 correct >= 1.0x cuBLAS nrm2", "f64", "normal", N28, 0)) == ("1.2000", "met"))
    TV = "var correct >= 1.0x torch.var"
    check("torch.var: float32 1.27 met", g.get((TV, "f32", "normal", N28, 0)) == ("1.2700", "met"))
    check("torch.var: float64 0.99 unmet", g.get((TV, "f64", "normal", N28, 0)) == ("0.9900", "unmet"))
    check("torch.var: a bfloat16 row whose check failed is never met",
          g.get((TV, "bf16", "normal", N28, 0)) == ("", "check FAILED"))
    check("torch.var: float16 has no row, no data", g.get((TV, "f16", "normal", N28, 0)) == ("", "no data"))
    check("torch.var: welford bf16 1.6 >= 1.5 met",
          g.get(("var welford >= 1.5x torch.var", "bf16", "normal", N28, 0)) == ("1.6000", "met"))
    check("torch.var: two-pass bf16 1.4 < 1.5 unmet",
          g.get(("var two-pass >= 1.5x torch.var", "bf16", "normal", N28, 0)) == ("1.4000", "unmet"))
    check("torch.dot: its file absent, no data",
          g.get(("dot correct >= 1.0x torch.dot", "bf16", "normal", N28, 0)) == ("", "no data"))
    check("4 GiB: reproducible at 2^30 0.987 met (the 2^28 row is not it)",
          g.get((R, "f32", "uniform", N30, 0)) == ("0.9870", "met"))
    check("4 GiB: superacc at 2^30 0.940 unmet", g.get((S, "f32", "uniform", N30, 0)) == ("0.9400", "unmet"))
    check("4 GiB: float64 at 2^29 absent, no data", g.get((R, "f64", "uniform", 1 << 29, 0)) == ("", "no data"))
    check("judge: a count a issue on stderr", "issue 35:" in p.stderr and "issue 34:" in p.stderr)
    p = run("judge", d, "--format", "csv", "--unmet", "--only", "35")
    g2 = states(p.stdout)
    check("--unmet --only 35: no met target, none of another issue",
          g2 and all(s != "met" for _, s in g2.values()) and all(k[0].startswith(("reproducible", "superacc", "kahan", "fp64"))
                                                              for k in g2))
    p = run("judge", d, "--format", "csv")
    check("judge: every file of an H200, no warning", "not an H200" not in p.stderr)
    check("judge --format csv: the gpu column names the file's GPU",
          all(r["gpu"] == "NVIDIA H200" for r in csv.DictReader(io.StringIO(p.stdout)) if r["state"] != "no data"))
    p = run("judge", d)
    check("judge: the machine and commit above the table",
          p.stdout.startswith("Measured on NVIDIA H200 at 0123456.\n"))
    check("the markdown table marks a met target", "| **met** |" in p.stdout and "| 35 | reproducible >= 0.97x CUB | bf16 | uniform | 2^28 | 0.980 | **met** |" in p.stdout)

    # an H100's file beside the H200's: said in the table's line and on stderr; a row without a
    # check column (a file from before it) is never met
    write(os.path.join(d, "lse_f32.csv"), [HEAD1.replace(",check,dataset", ",dataset"),
                                           row1("online", "f32", N28, "0.3", "0.95", "0.97").replace(",ok,uniform", ",uniform")],
          gpu="NVIDIA H100 80GB HBM3")
    p = run("judge", d, "--only", "33")
    check("an H100's file: the line above the table says it is not an H200",
          p.stdout.startswith("Measured on NVIDIA H100 80GB HBM3 at 0123456 (**not an H200**"))
    check("an H100's file: stderr says so", "NVIDIA H100 80GB HBM3 at 0123456, not an H200" in p.stderr)
    check("a row without a check column: unchecked, never met",
          "| 33 | online >= 0.90x the read | f32 | logits | 2^28 | - | unchecked |" in p.stdout
          and "issue 33: 1 unchecked" in p.stderr)

    # ---- compare: d (OLD) against e (NEW), e's bfloat16 sums changed -------------------------------
    e = os.path.join(w, "e")
    os.mkdir(e)
    for name in os.listdir(d):
        with open(os.path.join(d, name)) as fi, open(os.path.join(e, name), "w") as fo:
            fo.write(fi.read())
    bf16_rows = [HEAD1, row1("reproducible", "bf16", N28, "0.100", "0.9800", "0.95"),
                 row1("cub-f32acc", "bf16", N28, "0.110", "0.9000", "0.90"),
                 row1("reproducible", "bf16", N24, "0.020", "0.9750", "0.90"),   # 0.960 -> 0.975: newly met
                 row1("cub-f32acc", "bf16", N24, "0.019", "0.9300", "0.90"),
                 row1("reproducible", "bf16", N20, "0.010", "0.9900", "0.50", ok="FAILED"),
                 row1("superacc", "bf16", N24, "0.030", "0.9500", "0.90"),
                 row1("superacc", "bf16", N20, "0.010", "0.8499", "0.50"),
                 row1("kahan", "bf16", N28, "0.100", "0.9500", "0.95")]             # 0.970 -> 0.950: no longer met
    write(os.path.join(e, "sum_bf16_uniform.csv"), bf16_rows)
    p = run("compare", d, e, "--format", "csv")
    check("compare exits 0 (%d: %s)" % (p.returncode, p.stderr), p.returncode == 0)
    cmp = {(r["target"], r["dtype"], r["case"], int(r["n"])): r for r in csv.DictReader(io.StringIO(p.stdout))}
    r = cmp.get((R, "bf16", "uniform", N24), {})
    check("compare: 0.960 -> 0.975 newly met, change +1.5625 %% (%s)" % r,
          r.get("old") == "0.9600" and r.get("new") == "0.9750" and r.get("change") == "0.0156"
          and r.get("verdict") == "newly met")
    r = cmp.get(("kahan >= 0.97x CUB", "bf16", "uniform", N28), {})
    check("compare: 0.970 -> 0.950 no longer met (%s)" % r, r.get("verdict") == "no longer met")
    r = cmp.get((R, "bf16", "uniform", N28), {})
    check("compare: unchanged and met: still met, change 0 (%s)" % r,
          r.get("verdict") == "still met" and r.get("change") == "0.0000")
    r = cmp.get(("superacc >= 0.95x CUB", "bf16", "uniform", N28), {})
    check("compare: no data on both sides: still no data, no change (%s)" % r,
          r.get("verdict") == "still no data" and r.get("change") == "" and r.get("old") == "")
    check("compare: every target of the plan a row", len(cmp) == len(states(run("judge", d, "--format", "csv").stdout)))
    check("compare: counts a issue on stderr",
          "issue 35:" in p.stderr and "1 newly met" in p.stderr and "1 no longer met" in p.stderr)
    check("compare: the same machines on both sides, no warning about them", "a change between them" not in p.stderr)
    p = run("compare", d, e, "--changed", "--format", "csv")
    ch = list(csv.DictReader(io.StringIO(p.stdout)))
    check("compare --changed: only the two targets whose state changed (%d)" % len(ch),
          sorted(x["verdict"] for x in ch) == ["newly met", "no longer met"])
    p = run("compare", d, e, "--changed")
    check("compare (markdown): both machines above the table, the changes marked",
          p.stdout.startswith("OLD: ") and "NEW: " in p.stdout.splitlines()[0]
          and "| 35 | reproducible >= 0.97x CUB | bf16 | uniform | 2^24 | 0.960 | 0.975 | +1.6 % | **newly met** |" in p.stdout)
    write(os.path.join(e, "sum_bf16_uniform.csv"), bf16_rows, gpu="NVIDIA H100 80GB HBM3")
    p = run("compare", d, e, "--only", "35")
    check("compare: an H100's files against an H200's: said on stderr (%s)" % p.stderr,
          "OLD was measured on NVIDIA H200, NEW on NVIDIA H100 80GB HBM3, NVIDIA H200" in p.stderr
          and "NEW measured on NVIDIA H100 80GB HBM3 at 0123456, not an H200" in p.stderr)
    for args in ((d, os.path.join(w, "none")), (os.path.join(w, "none"), e), (d, os.path.join(w, "out-empty"))):
        if args[1].endswith("out-empty"):
            os.makedirs(args[1], exist_ok=True)
        p = run("compare", *args)
        check("compare %s: exit 2 with a reason (%d)" % (os.path.basename(args[1]), p.returncode),
              p.returncode == 2 and p.stderr.strip() != "" and p.stdout == "")

    # ---- run on a stub sumlab ----------------------------------------------------------------
    stub = os.path.join(w, "sumlab")
    with open(stub, "w") as f:
        f.write("#!/bin/sh\n# the stub: one online row at 2^28 whatever the arguments, after SLEEP seconds\n"
                "sleep ${STUB_SLEEP:-0}\n"
                "echo '%s'\necho '%s'\necho 'sumlab bench: a line on stderr' >&2\n"
                % (HEAD1, row1("online", "f32", N28, "0.3", "0.95", "0.93")))
    os.chmod(stub, 0o755)
    o = os.path.join(w, "out")
    p = run("run", "--sumlab", stub, "--out", o, "--only", "33")
    check("run --only 33 on the stub: exit 0 (%d %s)" % (p.returncode, p.stderr), p.returncode == 0)
    check("run: the two lse groups' CSV and stderr files",
          sorted(os.listdir(o)) == ["commands.txt", "lse_bf16.csv", "lse_bf16.err", "lse_f32.csv", "lse_f32.err"])
    check("run: commands.txt names each command", open(os.path.join(o, "commands.txt")).read().count(" bench ") == 2)
    check("run: the judgement follows (online f32 0.930 met)",
          "| 33 | online >= 0.90x the read | f32 | logits | 2^28 | 0.930 | **met** |" in p.stdout)
    check("run: a row of another format is not the target's (the stub's f32 row in lse_bf16.csv: no data)",
          "| 33 | online >= 0.90x the read | bf16 | logits | 2^28 | - | no data |" in p.stdout)
    o2 = os.path.join(w, "out2")
    p = run("run", "--sumlab", stub, "--out", o2, "--only", "31", "--seconds", "1", env=dict(os.environ, STUB_SLEEP="1.2"))
    check("run --seconds 1: the first group only, the rest said not run (%s)" % p.stderr,
          sorted(x for x in os.listdir(o2) if x.endswith(".csv")) == ["var_f32.csv"] and "not run" in p.stderr)
    p = run("run", "--sumlab", os.path.join(w, "nothing"), "--out", o2)
    check("run with a --sumlab that is no executable: exit 2 (%d)" % p.returncode, p.returncode == 2)
    p = run("run", "--sumlab", stub, "--out", o2, "--pythonpath", os.path.join(w, "nothing"))
    check("run with a --pythonpath that is no folder: exit 2 (%d)" % p.returncode, p.returncode == 2)
    # issue 32: the bench groups on the stub, and bench_moments.py for real: without PyTorch or a
    # GPU here it exits non-zero, its group has no data, and the run goes on to the judgement
    o3 = os.path.join(w, "out3")
    p = run("run", "--sumlab", stub, "--out", o3, "--only", "32", "--pythonpath", w)
    check("run --only 32: exit 0 with a failing bench_moments.py (%d %s)" % (p.returncode, p.stderr), p.returncode == 0)
    check("run --only 32: the torch group ran and said why it failed",
          os.path.getsize(os.path.join(o3, "torch_dotnorm.err")) > 0 and "torch_dotnorm rc=" in p.stderr
          and "torch_dotnorm rc=0 " not in p.stderr)
    check("run --only 32: commands.txt names bench_moments.py and the package folder it was given",
          "PYTHONPATH=%s " % os.path.abspath(w) in open(os.path.join(o3, "commands.txt")).read()
          and "bench_moments.py --n 2^28" in open(os.path.join(o3, "commands.txt")).read())
    check("run --only 32: its targets have no data",
          "| 32 | dot correct >= 1.0x torch.dot | bf16 | normal | 2^28 | - | no data |" in p.stdout)

print("ttargets: %d passed, %d failed" % (passes, fails))
sys.exit(1 if fails else 0)
