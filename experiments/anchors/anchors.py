#!/usr/bin/env python3
"""anchors.py: sums the study's inputs with the libraries people use (numpy.sum, math.fsum and,
when installed, torch.sum on the CPU and on CUDA) and has `sumlab judge` judge each sum against
the exact sum, so report.md can show them beside sumlab's own variants.

  anchors.py RUN_DIR [--sumlab BIN] [--experiments LIST] [--max-n N] [--no-torch] [--no-report]
      regenerates every input of RUN_DIR's results.csv (ok rows of the listed experiments,
      default accuracy-vs-n,accuracy-vs-cond,accuracy-vs-range; each instance with its own
      seed) with `sumlab gen`, sums it, judges it, writes RUN_DIR/anchors.csv and (unless
      --no-report) rewrites RUN_DIR/report.md with `sumlab run ... --report-only`.
  anchors.py --files F.npy [F2.npy ...] -o OUT.csv [--sumlab BIN] [--no-torch]
      the same for files of your own (experiment `file`, dataset = the file's path).

Needs NumPy (exit 77 when it is missing, so a test can skip); PyTorch is optional. Each value is
passed to `sumlab judge` as its exact hex (float.hex), so nothing is lost on the way.
anchors.csv columns: experiment,dataset,params,dtype,n,instance,seed,anchor,library, then
sumlab judge's result_hex,result,abs_err,rel_err,ulps,cond,ulps_f64,exact_sum_hex,exact_sum_dec,
exact_sum_bits."""
import argparse
import csv
import math
import os
import platform
import shutil
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("anchors.py: NumPy is not installed (pip install numpy)", file=sys.stderr)
    sys.exit(77)

JUDGE_COLS = ("result_hex", "result", "abs_err", "rel_err", "ulps", "cond", "ulps_f64",
              "exact_sum_hex", "exact_sum_dec", "exact_sum_bits")
KEY_COLS = ("experiment", "dataset", "params", "dtype", "n", "instance", "seed", "anchor", "library")


def find_sumlab(given):
    if given:
        return given
    here = os.path.dirname(os.path.abspath(__file__))
    for cand in (os.path.join(here, "..", "..", "build", "experiments", "sumlab"), shutil.which("sumlab")):
        if cand and os.access(cand, os.X_OK):
            return cand
    sys.exit("anchors.py: no sumlab binary found (give --sumlab PATH)")


def load_torch(disabled):
    if disabled:
        return None
    try:
        import torch  # noqa: F401
        return torch
    except ImportError:
        return None


def anchor_sums(x, torch):
    """[(name, library, value as a Python float)] for the array x."""
    npv = "numpy " + np.__version__
    out = [("numpy.sum", npv, float(np.sum(x)))]
    if x.dtype == np.float32:
        out.append(("numpy.sum(f64)", npv, float(np.sum(x, dtype=np.float64))))
    out.append(("math.fsum", "python " + platform.python_version(), math.fsum(x.tolist())))
    if torch is not None:
        tv = "torch " + torch.__version__
        t = torch.from_numpy(np.ascontiguousarray(x))
        devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
        for dev in devices:
            td = t.to(dev)
            out.append((f"torch.sum({dev})", tv, float(td.sum().item())))
            if x.dtype == np.float32:
                out.append((f"torch.sum({dev},f64)", tv, float(td.sum(dtype=torch.float64).item())))
    return out


def judge(sumlab, path, sums, tmp):
    vals = os.path.join(tmp, "values.csv")
    with open(vals, "w") as f:
        f.write("name,value\n")
        for name, _, v in sums:
            f.write(f"{name},{v.hex() if math.isfinite(v) else repr(v)}\n")
    p = subprocess.run([sumlab, "judge", path, "--values", vals, "--format", "csv", "-q"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"sumlab judge {path}: {p.stderr.strip()}")
    rows = list(csv.DictReader(p.stdout.splitlines()))
    lib = {name: l for name, l, _ in sums}
    return [(r["variant"], lib[r["variant"]], r) for r in rows]


def study_inputs(run_dir, experiments, max_n):
    """The distinct inputs of the run: (experiment, dataset, params, dtype, n, instance, seed, exact_hex)."""
    seen, out = set(), []
    with open(os.path.join(run_dir, "results.csv"), newline="") as f:
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            if r["experiment"] not in experiments or r["status"] != "ok" or r["config"] != "default":
                continue
            if max_n and int(r["n"]) > max_n:
                continue
            inst = r.get("instance", "0") or "0"
            k = (r["experiment"], r["dataset"], r["params"], r["dtype"], r["n"], inst)
            if k in seen:
                continue
            seen.add(k)
            out.append(k + (r["seed"], r["exact_hex"]))
    return out


def gen(sumlab, inp, path):
    exp, ds, params, dt, n, inst, seed, _ = inp
    cmd = [sumlab, "gen", ds, "--n", n, "--dtype", dt, "--seed", seed, "-o", path]
    for kv in filter(None, params.split(";")):
        cmd += ["--param", kv]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"sumlab gen: {p.stderr.strip()}")


def write_rows(out_path, rows):
    tmp = out_path + ".part"
    with open(tmp, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(KEY_COLS + JUDGE_COLS)
        for key, r in rows:
            w.writerow(list(key) + [r[c] for c in JUDGE_COLS])
    os.replace(tmp, out_path)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run_dir", nargs="?")
    ap.add_argument("--files", nargs="+")
    ap.add_argument("-o", "--output")
    ap.add_argument("--sumlab")
    ap.add_argument("--experiments", default="accuracy-vs-n,accuracy-vs-cond,accuracy-vs-range")
    ap.add_argument("--max-n", type=int, default=0)
    ap.add_argument("--no-torch", action="store_true")
    ap.add_argument("--no-report", action="store_true")
    a = ap.parse_args(argv)
    if bool(a.run_dir) == bool(a.files):
        ap.error("give RUN_DIR or --files (one of them)")
    if a.files and not a.output:
        ap.error("--files needs -o OUT.csv")
    sumlab = find_sumlab(a.sumlab)
    torch = load_torch(a.no_torch)
    rows, mismatched = [], 0
    with tempfile.TemporaryDirectory(prefix="anchors.") as tmp:
        if a.files:
            for path in a.files:
                x = np.load(path).reshape(-1, order="A")
                dt = {"float32": "f32", "float64": "f64"}.get(str(x.dtype))
                if dt is None:
                    sys.exit(f"anchors.py: {path}: dtype {x.dtype} (float32 or float64 only)")
                for name, lib, r in judge(sumlab, path, anchor_sums(x, torch), tmp):
                    rows.append((("file", path, "", dt, str(x.size), "0", "", name, lib), r))
            out = a.output
        else:
            inputs = study_inputs(a.run_dir, set(a.experiments.split(",")), a.max_n)
            path = os.path.join(tmp, "x.npy")
            for i, inp in enumerate(inputs):
                gen(sumlab, inp, path)
                x = np.load(path)
                judged = judge(sumlab, path, anchor_sums(x, torch), tmp)
                # the regenerated input is the study's: its exact sum, rounded, is the row's exact
                s = float.fromhex(judged[0][2]["exact_sum_hex"]) if "x" in judged[0][2]["exact_sum_hex"] else None
                want = inp[7]
                if s is not None and want and "x" in want:
                    w = float.fromhex(want)
                    got = float(np.float32(s)) if inp[3] == "f32" else s
                    if got != w and not (math.isinf(w) or math.isnan(w)):
                        mismatched += 1
                        continue
                for name, lib, r in judged:
                    rows.append((inp[:7] + (name, lib), r))
                if (i + 1) % 50 == 0:
                    print(f"anchors.py: {i + 1}/{len(inputs)} inputs", file=sys.stderr)
            out = os.path.join(a.run_dir, "anchors.csv")
    write_rows(out, rows)
    print(f"anchors.py: {len(rows)} rows to {out}" +
          (f"; {mismatched} inputs skipped (regenerated input differs from the study's)" if mismatched else ""),
          file=sys.stderr)
    if a.run_dir and not a.no_report:
        conf = dict(l.strip().split("=", 1) for l in open(os.path.join(a.run_dir, "run.conf")) if "=" in l)
        p = subprocess.run([sumlab, "run", conf.get("experiment", "all"), "-o", a.run_dir, "--report-only", "-q"],
                           capture_output=True, text=True)
        if p.returncode != 0:
            print(f"anchors.py: report not rewritten: {p.stderr.strip()}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
