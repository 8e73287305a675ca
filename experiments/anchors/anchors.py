#!/usr/bin/env python3
"""anchors.py: computes the study's reductions of the study's inputs with the libraries people use
and judges each result against the operation's exact result with the Python package sumlab
(sumlab.judge, op= and ddof=), so report.md can show them beside sumlab's variants. Per operation
(the op column of each results row; ddof from run.conf):
  sum   numpy.sum, numpy.sum(f64), math.fsum, torch.sum, torch.sum(;f64)
  mean  numpy.mean, numpy.mean(f64), torch.mean
  var   numpy.var (ddof), numpy.var(f64), torch.var (correction = ddof), torch.var_mean
  std   numpy.std (ddof), numpy.std(f64), torch.std, torch.std_mean
  max   numpy.max, torch.max          min  numpy.min, torch.min
  lse   numpy shifted lse (max + log(sum(exp(x - max))) in the input's format), and where installed
        scipy.special.logsumexp (also on float64 values) and torch.logsumexp
  norm2 numpy.linalg.norm, numpy.linalg.norm(f64), where installed scipy.linalg.blas's nrm2 (the
        BLAS's snrm2/dnrm2: LAPACK 3.10's is Blue's scaled sum) and torch.linalg.vector_norm
  dot   numpy.dot, numpy.dot(f64), where installed scipy.linalg.blas's sdot/ddot and torch.dot; the
        two inputs are the study's pair (a family's 2n values: x then y)
torch rows on the CPU and on CUDA where present; a library call that refuses the input's format
(or raises) gives no row and one line on stderr.

  anchors.py RUN_DIR [--sumlab BIN] [--experiments LIST] [--max-n N] [--no-torch] [--no-report]
      regenerates every input of RUN_DIR's results.csv (ok rows of the listed experiments,
      default accuracy-vs-n,accuracy-vs-cond,accuracy-vs-range; each instance with its own
      seed) with `sumlab gen`, sums it, judges it, writes RUN_DIR/anchors.csv and (unless
      --no-report) rewrites RUN_DIR/report.md with `sumlab run ... --report-only`.
  anchors.py --files F.npy [F2.npy ...] -o OUT.csv [--sumlab BIN] [--no-torch] [--op OP] [--ddof N]
      the same for files of your own (experiment `file`, dataset = the file's path; default op sum;
      --op dot takes the files as X,Y pairs in order, of one length and format, dataset X+Y).

Needs NumPy and the package sumlab (the one built beside BIN, <build>/python, else an installed
one; exit 77 when either is missing, so a test can skip); bfloat16 inputs need ml_dtypes
(np.load reads them as raw 'V2' bytes; without ml_dtypes they are skipped, or refused with
--files, with a message saying so); PyTorch is optional. Inputs of all four formats (float32,
float64, float16, bfloat16). Each anchor's result is judged as a variable of the input's format
holds it: a library result of a wider type (math.fsum's double, numpy.sum(f64)) is rounded once
to the format by sumlab.judge, exactly. Anchor names hold no comma (they are CSV fields).
anchors.csv columns: experiment,dataset,params,dtype,n,instance,seed,anchor,library, then the
columns of `sumlab judge`, as it prints them: result_hex,result,abs_err,rel_err,ulps,cond,
ulps_f64,exact_sum_hex,exact_sum_dec,exact_sum_bits (the operation's exact result: the sum's for
op sum), then op,ddof."""
import argparse
import csv
import importlib
import math
import os
import platform
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("anchors.py: NumPy is not installed (pip install numpy)", file=sys.stderr)
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))   # anchor_common.py, beside this file
from anchor_common import find_sumlab  # noqa: E402

try:
    import ml_dtypes
except ImportError:
    ml_dtypes = None

NO_BF16 = "bfloat16 input needs ml_dtypes (pip install ml_dtypes): np.load reads it as raw 'V2' bytes"


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
TAIL_COLS = ("op", "ddof")
OPS = ("sum", "mean", "var", "std", "max", "min", "lse", "norm2", "dot")
TWO_INPUTS = ("dot",)


def load_torch(disabled):
    if disabled:
        return None
    try:
        import torch  # noqa: F401
        return torch
    except ImportError:
        return None


def anchor_sums(x, torch, label):
    """[(name, library, value as a Python float)] for the array x: each library's result as it
    gave it (judge() holds it in x's format). Names hold no comma."""
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
    return raw


def load_scipy_lse():
    try:
        from scipy.special import logsumexp
        import scipy
        return logsumexp, "scipy " + scipy.__version__
    except ImportError:
        return None, None


def _call(raw, name, lib, fn, label):
    """raw += (name, lib, float(fn())); a library that refuses the input gives no row and a line."""
    try:
        with np.errstate(all="ignore"):
            v = fn()
        raw.append((name, lib, float(v.item() if hasattr(v, "item") else v)))
    except (TypeError, ValueError, RuntimeError, OverflowError, NotImplementedError) as e:
        msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        print(f"anchors.py: {name} gave no result for {label}: {msg}", file=sys.stderr)


def _torch_tensor(x, torch):
    c = np.ascontiguousarray(x)
    if sumlab_dtype(x) == "bf16":   # torch reads no ml_dtypes array: the same 16 bits, as torch.bfloat16
        return torch.from_numpy(c.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(c)


def load_scipy_blas():
    try:
        from scipy.linalg import blas
        import scipy
        return blas, "scipy " + scipy.__version__
    except ImportError:
        return None, None


def anchor_values(x, op, ddof, torch, label, y=None):
    """[(name, library, value)] of op over x (and y, dot's second input) by each library (sum:
    anchor_sums). Names hold no comma; each value is what the library returned, judged as a
    variable of x's format holds it."""
    if op == "sum":
        return anchor_sums(x, torch, label)
    dt = sumlab_dtype(x)
    npv = "numpy " + np.__version__
    wide = x.astype(np.float64)
    raw = []
    if op in ("mean", "var", "std", "max", "min"):
        f = {"mean": lambda a: np.mean(a), "var": lambda a: np.var(a, ddof=ddof),
             "std": lambda a: np.std(a, ddof=ddof), "max": np.max, "min": np.min}[op]
        _call(raw, f"numpy.{op}", npv, lambda: f(x), label)
        if dt != "f64" and op in ("mean", "var", "std"):
            _call(raw, f"numpy.{op}(f64)", npv, lambda: f(wide), label)
    elif op == "lse":
        # the form written by hand with NumPy, in the input's format: max + log(sum(exp(x - max)))
        def np_lse(a):
            m = np.max(a)
            return m + np.log(np.sum(np.exp(a - m))) if np.isfinite(m) else m
        _call(raw, "numpy shifted lse", npv, lambda: np_lse(x), label)
        lse, sv = load_scipy_lse()
        if lse is not None:
            _call(raw, "scipy.special.logsumexp", sv, lambda: lse(x), label)
            if dt != "f64":
                _call(raw, "scipy.special.logsumexp(f64)", sv, lambda: lse(wide), label)
    elif op in ("norm2", "dot"):
        if op == "norm2":
            f, fname, bname = (lambda a, b: np.linalg.norm(a)), "numpy.linalg.norm", "nrm2"
        else:
            f, fname, bname = np.dot, "numpy.dot", "dot"
        _call(raw, fname, npv, lambda: f(x, y), label)
        if dt != "f64":
            _call(raw, fname + "(f64)", npv, lambda: f(wide, None if y is None else y.astype(np.float64)), label)
        blas, bv = load_scipy_blas()
        if blas is not None and dt in ("f32", "f64"):   # the BLAS's own routine of the input's format
            fn = getattr(blas, ("s" if dt == "f32" else "d") + bname)
            _call(raw, f"scipy.linalg.blas.{'s' if dt == 'f32' else 'd'}{bname}", bv,
                  lambda: fn(x) if y is None else fn(x, y), label)
    if torch is not None:
        tv = "torch " + torch.__version__
        t = _torch_tensor(x, torch)
        ty = None if y is None else _torch_tensor(y, torch)
        for dev in ["cpu"] + (["cuda"] if torch.cuda.is_available() else []):
            td = t.to(dev)
            if op == "mean":
                _call(raw, f"torch.mean({dev})", tv, lambda: td.mean(), label)
            elif op in ("var", "std"):
                fn = td.var if op == "var" else td.std
                both = torch.var_mean if op == "var" else torch.std_mean
                _call(raw, f"torch.{op}({dev})", tv, lambda: fn(correction=ddof), label)
                _call(raw, f"torch.{op}_mean({dev})", tv, lambda: both(td, correction=ddof)[0], label)
            elif op in ("max", "min"):
                _call(raw, f"torch.{op}({dev})", tv, lambda: getattr(td, op)(), label)
            elif op == "lse":
                _call(raw, f"torch.logsumexp({dev})", tv, lambda: torch.logsumexp(td, dim=0), label)
            elif op == "norm2":
                _call(raw, f"torch.linalg.vector_norm({dev})", tv, lambda: torch.linalg.vector_norm(td), label)
            elif op == "dot":
                _call(raw, f"torch.dot({dev})", tv, lambda: torch.dot(td, ty.to(dev)), label)
    for name, _, _ in raw:
        assert "," not in name, name
    return raw


def load_sumlab(bin_path):
    """The package sumlab: the one built beside the sumlab binary (<build>/python, as the binary
    <build>/experiments/sumlab) first, else an installed one; None when neither imports."""
    here = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(bin_path))), "python")
    if os.path.isfile(os.path.join(here, "sumlab", "__init__.py")) and here not in sys.path:
        sys.path.insert(0, here)
    try:
        return importlib.import_module("sumlab")
    except ImportError as e:
        print(f"anchors.py: the Python package sumlab does not import ({e}): build with "
              "-DSUMLAB_PYTHON=ON (experiments/bootstrap.sh does when nanobind is installed) or pip install .",
              file=sys.stderr)
        return None


def fmt_hex(v):
    """v as C's %a prints it (every bit; "0x1p+0", "-0x1.8p+3", "0x0p+0"), inf/-inf/nan spelled so."""
    if not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    h = v.hex()                                   # "0x1.8000000000000p+3"
    mant, _, exp = h.partition("p")
    return mant.rstrip("0").rstrip(".") + "p" + exp


# digits that identify any value of the format, as `sumlab judge` prints a result
RESULT_DIGITS = {"f32": 9, "f64": 17, "f16": 5, "bf16": 4}


def fmt_result(v, dt):
    """A result as `sumlab judge` prints it: the digits that identify any value of dt; inf, -inf, nan."""
    if not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    return "%.*g" % (RESULT_DIGITS[dt], v)


def fmt_num(v):
    """A figure as `sumlab judge` prints it: %.17g, inf, -inf; nan as an empty field."""
    return "" if math.isnan(v) else fmt_result(v, "f64")


def judge(sumlab, x, sums, op="sum", ddof=1, y=None):
    """[(name, library, the judge's columns)] for the anchors' results of op over x (and y, dot's
    second input): sumlab.judge holds each value in x's format (rounded once) and judges it against
    op's exact result."""
    dt = sumlab_dtype(x)
    out = []
    for name, lib, v in sums:
        j = sumlab.judge(x, v, op=op, ddof=ddof, y=y)
        out.append((name, lib, {
            "result_hex": fmt_hex(j.value_as), "result": fmt_result(j.value_as, dt),
            "abs_err": fmt_num(j.abs_err), "rel_err": fmt_num(j.rel_err), "ulps": fmt_num(j.ulps),
            "cond": fmt_num(j.cond), "ulps_f64": fmt_num(j.ulps_f64), "exact_sum_hex": j.exact_sum_hex,
            "exact_sum_dec": j.exact_sum_dec, "exact_sum_bits": str(j.exact_sum_bits), "exact": j.exact,
            "op": op, "ddof": str(ddof)}))
    return out


def study_inputs(run_dir, experiments, max_n):
    """The distinct inputs of the run: (experiment, dataset, params, dtype, n, instance, seed,
    exact_hex, op); op from the row's op column (sum when the file has none)."""
    seen, out = set(), []
    with open(os.path.join(run_dir, "results.csv"), newline="") as f:
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            if r["experiment"] not in experiments or r["status"] != "ok" or r["config"] != "default":
                continue
            if max_n and int(r["n"]) > max_n:
                continue
            inst = r.get("instance", "0") or "0"
            op = r.get("op") or "sum"
            k = (r["experiment"], r["dataset"], r["params"], r["dtype"], r["n"], inst)
            if (k, op) in seen:
                continue
            seen.add((k, op))
            out.append(k + (r["seed"], r["exact_hex"], op))
    return out


def gen(sumlab, inp, path, inputs=1):
    """The study's input: its `inputs` arrays of n values each, as one file of inputs * n values
    (a two-input operation's family yields x then y, as the study splits it)."""
    exp, ds, params, dt, n, inst, seed = inp[:7]
    cmd = [sumlab, "gen", ds, "--n", str(int(n) * inputs), "--dtype", dt, "--seed", seed, "-o", path]
    for kv in filter(None, params.split(";")):
        cmd += ["--param", kv]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"sumlab gen: {p.stderr.strip()}")


def write_rows(out_path, rows):
    tmp = out_path + ".part"
    with open(tmp, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(KEY_COLS + JUDGE_COLS + TAIL_COLS)
        for key, r in rows:
            w.writerow(list(key) + [r[c] for c in JUDGE_COLS + TAIL_COLS])
    os.replace(tmp, out_path)


def run_conf(run_dir):
    """RUN_DIR/run.conf's settings (key=value lines; # comments)."""
    with open(os.path.join(run_dir, "run.conf")) as f:
        return dict(l.strip().split("=", 1) for l in f if "=" in l and not l.startswith("#"))


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
    ap.add_argument("--op", default="sum", choices=OPS, help="--files: the operation (default sum)")
    ap.add_argument("--ddof", type=int, default=1, help="--files: var/std divide by n - ddof (default 1)")
    a = ap.parse_args(argv)
    if bool(a.run_dir) == bool(a.files):
        ap.error("give RUN_DIR or --files (one of them)")
    if a.files and not a.output:
        ap.error("--files needs -o OUT.csv")
    sumlab_bin = find_sumlab(a.sumlab, "anchors.py")
    sl = load_sumlab(sumlab_bin)
    if sl is None:
        return 77
    torch = load_torch(a.no_torch)
    rows, mismatched, no_bf16 = [], 0, 0
    with tempfile.TemporaryDirectory(prefix="anchors.") as tmp:
        if a.files:
            two = a.op in TWO_INPUTS
            if two and len(a.files) % 2:
                sys.exit(f"anchors.py: --op {a.op} takes the files as X,Y pairs: {len(a.files)} files is an odd count")
            arrays = []
            for path in a.files:
                try:
                    x = load_npy(path).reshape(-1, order="A")
                except ValueError as e:
                    sys.exit(f"anchors.py: {path}: {e}")
                if sumlab_dtype(x) is None:
                    sys.exit(f"anchors.py: {path}: dtype {x.dtype} (float32, float64, float16 or bfloat16 only)")
                arrays.append((path, x))
            step = 2 if two else 1
            for k in range(0, len(arrays), step):
                path, x = arrays[k]
                y = None
                if two:
                    ypath, y = arrays[k + 1]
                    if y.size != x.size or sumlab_dtype(y) != sumlab_dtype(x):
                        sys.exit(f"anchors.py: {path} and {ypath}: {x.size} {sumlab_dtype(x)} values against "
                                 f"{y.size} {sumlab_dtype(y)} (the inputs of {a.op} must have one length and format)")
                    path = path + "+" + ypath
                dt = sumlab_dtype(x)
                for name, lib, r in judge(sl, x, anchor_values(x, a.op, a.ddof, torch, path, y), a.op, a.ddof, y):
                    rows.append((("file", path, "", dt, str(x.size), "0", "", name, lib), r))
            out = a.output
        else:
            inputs = study_inputs(a.run_dir, set(a.experiments.split(",")), a.max_n)
            conf = run_conf(a.run_dir)
            ddof = int(conf.get("ddof", "1") or "1")
            path = os.path.join(tmp, "x.npy")
            for i, inp in enumerate(inputs):
                if inp[3] == "bf16" and ml_dtypes is None:
                    no_bf16 += 1
                    continue
                label = "{} {} {} n={} instance {}".format(inp[1], inp[2] or "-", inp[3], inp[4], inp[5])
                op = inp[8]
                if op not in OPS:
                    print(f"anchors.py: {label}: operation {op} has no anchors here", file=sys.stderr)
                    continue
                two = op in TWO_INPUTS
                gen(sumlab_bin, inp, path, 2 if two else 1)
                x = load_npy(path, inp[3])
                y = None
                if two:   # the study's pair: x then y
                    x, y = x[:int(inp[4])], x[int(inp[4]):]
                judged = judge(sl, x, anchor_values(x, op, ddof, torch, label, y), op, ddof, y)
                # the regenerated input is the study's: its exact sum S rounded once to the
                # format (the judge's exact) is the study's exact row
                want = inp[7]
                if judged and want and "x" in want and judged[0][2]["exact"] != float.fromhex(want):
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
        conf = run_conf(a.run_dir)
        p = subprocess.run([sumlab_bin, "run", conf.get("experiment", "all"), "-o", a.run_dir, "--report-only", "-q"],
                           capture_output=True, text=True)
        if p.returncode != 0:
            print(f"anchors.py: report not rewritten: {p.stderr.strip()}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
