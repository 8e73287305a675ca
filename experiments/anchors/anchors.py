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

Needs NumPy (exit 77 when it is missing, so a test can skip); bfloat16 inputs need ml_dtypes
(np.load reads them as raw 'V2' bytes; without ml_dtypes they are skipped, or refused with
--files, with a message saying so); PyTorch is optional. Inputs of all four formats (float32,
float64, float16, bfloat16). Each anchor's result is held in the input's format, as a variable
of that format holds it: a library result of a wider type (math.fsum's double, numpy.sum(f64))
is rounded once to the format, here, exactly; it goes to `sumlab judge` as an exact hex float,
so nothing is lost on the way. Anchor names hold no comma (they are CSV fields).
anchors.csv columns: experiment,dataset,params,dtype,n,instance,seed,anchor,library, then
sumlab judge's result_hex,result,abs_err,rel_err,ulps,cond,ulps_f64,exact_sum_hex,exact_sum_dec,
exact_sum_bits."""
import argparse
import csv
import fractions
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
try:
    import ml_dtypes
except ImportError:
    ml_dtypes = None

# sumlab's format names: (significand bits p, smallest normal exponent, largest exponent)
FORMATS = {"f64": (53, -1022, 1023), "f32": (24, -126, 127), "f16": (11, -14, 15), "bf16": (8, -126, 127)}
NO_BF16 = "bfloat16 input needs ml_dtypes (pip install ml_dtypes): np.load reads it as raw 'V2' bytes"


def parse_hex(text):
    """A hex float as printed by sumlab (%a or every bit of S) as an exact Fraction; None for
    inf/nan."""
    t = text.strip().lower()
    neg = t.startswith("-")
    t = t.lstrip("+-")
    if not t.startswith("0x"):
        return None
    mant, _, exp = t[2:].partition("p")
    whole, _, frac = mant.partition(".")
    v = fractions.Fraction(int(whole + frac or "0", 16), 16 ** len(frac)) * fractions.Fraction(2) ** int(exp or "0")
    return -v if neg else v


def round_to(v, dt):
    """The exact value v (Fraction, or a float) rounded once to format dt (nearest, ties to
    even), as a Python float; +-inf past the format's range."""
    if isinstance(v, float):
        if not math.isfinite(v):
            return v
        v = fractions.Fraction(v)
    if v == 0:
        return 0.0
    p, emin, emax = FORMATS[dt]
    a = abs(v)
    e = a.numerator.bit_length() - a.denominator.bit_length()   # 2^e <= a < 2^(e+2)
    if fractions.Fraction(2) ** e > a:
        e -= 1
    elif fractions.Fraction(2) ** (e + 1) <= a:
        e += 1
    q = max(e, emin) - (p - 1)                                   # the quantum at a
    m = a / fractions.Fraction(2) ** q
    r = math.floor(m)
    if m - r > fractions.Fraction(1, 2) or (m - r == fractions.Fraction(1, 2) and r % 2):
        r += 1
    out = fractions.Fraction(r) * fractions.Fraction(2) ** q
    if out >= fractions.Fraction(2) ** (emax + 1):
        res = math.inf
    else:
        res = float(out)
    return -res if v < 0 else res


def sumlab_dtype(x):
    """sumlab's name for the array's format, or None."""
    if ml_dtypes is not None and x.dtype == ml_dtypes.bfloat16:
        return "bf16"
    return {"float32": "f32", "float64": "f64", "float16": "f16"}.get(str(x.dtype))


def load_npy(path, dt=None):
    """np.load, bfloat16 ('V2' bytes) viewed as ml_dtypes.bfloat16. Raises ValueError with a
    message when the array cannot be summed here."""
    x = np.load(path)
    if x.dtype.kind == "V" and x.dtype.itemsize == 2 and (dt in (None, "bf16")):
        if ml_dtypes is None:
            raise ValueError(NO_BF16)
        x = x.view(ml_dtypes.bfloat16)
    return x

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


def anchor_sums(x, torch, label):
    """[(name, library, value as a Python float in the input's format)] for the array x: every
    library result held in x's format (a wider result rounded once to it). Names hold no comma."""
    dt = sumlab_dtype(x)
    npv = "numpy " + np.__version__
    wide = x.astype(np.float64)
    with np.errstate(all="ignore"):   # an overflowing or inf - inf sum is a result like any other
        raw = [("numpy.sum", npv, float(np.sum(x)))]
        if dt != "f64":
            raw.append(("numpy.sum(f64)", npv, float(np.sum(wide))))
    try:
        raw.append(("math.fsum", "python " + platform.python_version(), math.fsum(wide.tolist())))
    except (OverflowError, ValueError) as e:   # no result: no row, and a line saying so
        print(f"anchors.py: math.fsum gave no result for {label}: {e}", file=sys.stderr)
    if torch is not None:
        tv = "torch " + torch.__version__
        c = np.ascontiguousarray(x)
        if dt == "bf16":   # torch reads no ml_dtypes array: the same 16 bits, as torch.bfloat16
            t = torch.from_numpy(c.view(np.int16)).view(torch.bfloat16)
        else:
            t = torch.from_numpy(c)
        devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
        for dev in devices:
            td = t.to(dev)
            raw.append((f"torch.sum({dev})", tv, float(td.sum().item())))
            if dt != "f64":
                raw.append((f"torch.sum({dev};f64)", tv, float(td.sum(dtype=torch.float64).item())))
    for name, _, _ in raw:
        assert "," not in name, name
    return [(name, lib, round_to(v, dt)) for name, lib, v in raw]


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
                try:
                    x = load_npy(path).reshape(-1, order="A")
                except ValueError as e:
                    sys.exit(f"anchors.py: {path}: {e}")
                dt = sumlab_dtype(x)
                if dt is None:
                    sys.exit(f"anchors.py: {path}: dtype {x.dtype} (float32, float64, float16 or bfloat16 only)")
                for name, lib, r in judge(sumlab, path, anchor_sums(x, torch, path), tmp):
                    rows.append((("file", path, "", dt, str(x.size), "0", "", name, lib), r))
            out = a.output
        else:
            inputs = study_inputs(a.run_dir, set(a.experiments.split(",")), a.max_n)
            path = os.path.join(tmp, "x.npy")
            no_bf16 = 0
            for i, inp in enumerate(inputs):
                if inp[3] == "bf16" and ml_dtypes is None:
                    no_bf16 += 1
                    continue
                gen(sumlab, inp, path)
                x = load_npy(path, inp[3])
                label = "{} {} {} n={} instance {}".format(inp[1], inp[2] or "-", inp[3], inp[4], inp[5])
                judged = judge(sumlab, path, anchor_sums(x, torch, label), tmp)
                # the regenerated input is the study's: its exact sum S rounded once to the
                # format (exactly, from every bit of S) is the study's exact row
                s = parse_hex(judged[0][2]["exact_sum_hex"])
                want = inp[7]
                if s is not None and want and "x" in want:
                    if round_to(s, inp[3]) != float.fromhex(want):
                        mismatched += 1
                        continue
                for name, lib, r in judged:
                    rows.append((inp[:7] + (name, lib), r))
                if (i + 1) % 50 == 0:
                    print(f"anchors.py: {i + 1}/{len(inputs)} inputs", file=sys.stderr)
            out = os.path.join(a.run_dir, "anchors.csv")
    if a.run_dir and no_bf16:
        print(f"anchors.py: {no_bf16} bfloat16 inputs skipped: {NO_BF16}", file=sys.stderr)
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
