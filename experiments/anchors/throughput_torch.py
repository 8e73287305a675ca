#!/usr/bin/env python3
"""throughput_torch.py: throughput-vs-n's framework series: the operation's PyTorch call timed on a
CUDA device at the sizes and in the formats of a study's throughput-vs-n experiment, written to
RUN_DIR/throughput_torch.csv, which the study joins as rows named for the call (torch.logsumexp)
beside sumlab's variants, CUB and the read ceiling (experiments/study/exp_throughput.c).

  throughput_torch.py RUN_DIR [--reps R] [--op OP] [--ddof D] [--preset P] [--dtype LIST]
                      [--n LIST] [--seed S] [--device cuda]

The calls (sl_operation.torch_call names them in C): sum torch.sum, mean torch.mean, var torch.var
and std torch.std (correction = the run's ddof), max torch.amax, min torch.amin, lse
torch.logsumexp (dim=0), norm2 torch.linalg.vector_norm, dot torch.dot (two arrays).

The settings: RUN_DIR/run.conf's when a run was started there (key=value lines of its
known fields, none twice, those it uses checked as `sumlab run --resume` checks them; an option
that disagrees with it is an error), else the options, with `sumlab
run`'s defaults on a GPU (op sum, preset full, ddof 1, every format). The run must be of `all` or
`throughput-vs-n`. Run it before `sumlab run ... -o RUN_DIR` (or before a resume), never during a
run: the GPU is then the script's alone, and the study joins the file at the end of
throughput-vs-n (rows already in results.csv are kept).

Sizes (those of exp_throughput.c's throughput-vs-n; keep the two in step): run.conf's or --n's
list in every format, else by preset: full 2^10 .. 2^28 by 2x (float16 and bfloat16 every other
size), quick 2^16 .. 2^26 by 4x, tiny 2^12 .. 2^16 by 4x. Formats: f32, f64, f16, bf16 (run.conf's
or --dtype's list keeps some).

Timing, as the study's GPU rows (kernels/gpu_harness.cu): per format and n, its own input on the
device (torch.randn from a generator seeded with the run's seed: normal values, lse logits of
sigma 3; dot two arrays), 3 warm-up calls, then R timed calls, each after an L2 flush (a read of
twice the L2 size) and a spin of the device (torch.cuda._sleep) that keeps it busy while the call
is enqueued, so that its CUDA events time the device's execution of the call; the median, least
and greatest of the R times. R: --reps, else run.conf's reps, else the preset's (full 10, else 5).
Values do not change these calls' speed; the rows say they are PyTorch's own input.

RUN_DIR/throughput_torch.csv (written whole: a temporary file, fsync, rename), one row per format
and n:
  op              sumlab's operation (sum, lse, ...)
  variant         the PyTorch call (torch.logsumexp)
  dataset         the family the input follows: normal (mean 0, sd 1), lse: logits (sigma 3)
  dtype           f32, f64, f16, bf16
  n               elements per input array
  ddof            var and std: the correction passed (the run's ddof); empty for the others
  seed            the generator's seed
  reps            timed calls
  time_ms_median, time_ms_min, time_ms_max   CUDA-event times of one call (ms)
  gbps            bytes of every input read (dot: both arrays) / median time, in GB/s
  torch           PyTorch's version

Exit: 0 written (a call that raises on one format or size is reported and leaves its rows out);
1 no row measured, or the file not written; 2 bad usage, RUN_DIR or run.conf; 77 PyTorch not
installed or no CUDA device (absent, not an error: nothing written)."""
import argparse
import os
import re
import statistics
import sys

PROG = "throughput_torch.py"
COLUMNS = ["op", "variant", "dataset", "dtype", "n", "ddof", "seed", "reps", "time_ms_median",
           "time_ms_min", "time_ms_max", "gbps", "torch"]
# op -> (the call's name, the family its input follows, the arrays it reads)
CALLS = {
    "sum": ("torch.sum", "normal", 1),
    "mean": ("torch.mean", "normal", 1),
    "var": ("torch.var", "normal", 1),
    "std": ("torch.std", "normal", 1),
    "max": ("torch.amax", "normal", 1),
    "min": ("torch.amin", "normal", 1),
    "lse": ("torch.logsumexp", "logits", 1),
    "norm2": ("torch.linalg.vector_norm", "normal", 1),
    "dot": ("torch.dot", "normal", 2),
}
LOGITS_SIGMA = 3.0                 # the logits family's default spread (sumlab list datasets)
FORMATS = ["f32", "f64", "f16", "bf16"]
SIZE = {"f32": 4, "f64": 8, "f16": 2, "bf16": 2}
DDOF_DEFAULT, DDOF_MAX = 1, 1000000
N_MAX = 1 << 40
WARMUP = 3
SPIN_S = 100e-6                    # the device's spin before each timed call
RUNCONF_KEYS = ("experiment", "preset", "backend", "seed", "reps", "started", "n", "datasets",
                "variants", "dtypes", "seeds", "baseline", "op", "ddof", "params", "files")
RUNCONF_REQUIRED = RUNCONF_KEYS[:6]


class Usage(Exception):
    """Bad usage, RUN_DIR or run.conf: one line, exit 2."""


def u64(s, what, lo=0, hi=(1 << 64) - 1):
    """An unsigned decimal as sumlab writes it (no sign, no leading zero) in [lo, hi]."""
    if not re.fullmatch(r"0|[1-9][0-9]{0,19}", s) or not lo <= int(s) <= hi:
        raise Usage(f"{what}: '{s[:40]}' is not a decimal integer in [{lo}, {hi}]")
    return int(s)


def size_item(s, what):
    """A size: a decimal or 2^K, 1 .. 2^40."""
    m = re.fullmatch(r"2\^([0-9]{1,2})", s)
    n = 1 << int(m.group(1)) if m else u64(s, what, 1, N_MAX)
    if not 1 <= n <= N_MAX:
        raise Usage(f"{what}: '{s}' is not a size in [1, 2^40]")
    return n


def comma_list(s, what, item):
    """A comma-separated list ("" = none): every item valid, none twice."""
    if s == "":
        return []
    parts = s.split(",")
    if any(p == "" for p in parts) or len(parts) > 64:
        raise Usage(f"{what}: '{s[:60]}' is not a comma-separated list of at most 64 items")
    out = [item(p, what) for p in parts]
    if len(set(out)) != len(out):
        raise Usage(f"{what}: an item given twice in '{s[:60]}'")
    return out


def dtype_item(s, what):
    if s not in FORMATS:
        raise Usage(f"{what}: '{s[:20]}' is not a format (f32, f64, f16 or bf16)")
    return s


def read_runconf(path):
    """run.conf's settings as a dict (op, ddof, preset, seed, reps, n, dtypes, experiment)."""
    try:
        with open(path, "rb") as f:
            raw = f.read(1 << 16)
    except OSError as e:
        raise Usage(f"{path}: {e.strerror}")
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        raise Usage(f"{path}: not ASCII text")
    seen = {}
    for ln, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        if not line or line.startswith("#"):
            continue
        if len(line) > 1598 or any(ord(ch) < 0x20 or ord(ch) == 0x7f for ch in line):
            raise Usage(f"{path}:{ln}: a line too long or holding control characters")
        key, eq, value = line.partition("=")
        if not eq:
            raise Usage(f"{path}:{ln}: expected key=value")
        if key not in RUNCONF_KEYS:
            raise Usage(f"{path}:{ln}: unknown field '{key[:40]}'")
        if key in seen:
            raise Usage(f"{path}: field '{key}' given twice")
        seen[key] = value
    for key in RUNCONF_REQUIRED:
        if key not in seen:
            raise Usage(f"{path}: field '{key}' missing")
    where = f"{path}: field"
    conf = {"experiment": seen["experiment"], "preset": seen["preset"]}
    if not re.fullmatch(r"[a-z0-9-]+", conf["experiment"]):
        raise Usage(f"{where} 'experiment': not an experiment name")
    if conf["preset"] not in ("tiny", "quick", "full"):
        raise Usage(f"{where} 'preset': '{conf['preset'][:20]}' is not tiny, quick or full")
    if seen["backend"] not in ("cpu", "gpu"):
        raise Usage(f"{where} 'backend': not cpu or gpu")
    conf["seed"] = u64(seen["seed"], f"{where} 'seed'")
    conf["reps"] = u64(seen["reps"], f"{where} 'reps'", 0, 1000000)
    conf["n"] = comma_list(seen.get("n", ""), f"{where} 'n'", lambda s, w: u64(s, w, 1, N_MAX))
    conf["dtypes"] = comma_list(seen.get("dtypes", ""), f"{where} 'dtypes'", dtype_item)
    conf["op"] = seen.get("op", "sum")        # absent in runs made before the operation axis
    if conf["op"] not in CALLS:
        raise Usage(f"{where} 'op': '{conf['op'][:20]}' is no operation with a PyTorch call ({', '.join(CALLS)})")
    conf["ddof"] = u64(seen.get("ddof", str(DDOF_DEFAULT)), f"{where} 'ddof'", 0, DDOF_MAX)
    return conf


def sizes(preset, nlist):
    """{format: [n, ...]} of throughput-vs-n for the preset (nlist: --n's or run.conf's list)."""
    if nlist:
        return {dt: list(nlist) for dt in FORMATS}
    lo, hi, step = {"full": (10, 28, 1), "quick": (16, 26, 2), "tiny": (12, 16, 2)}[preset]
    ns = [1 << k for k in range(lo, hi + 1, step)]
    return {dt: ns[::2] if preset == "full" and dt in ("f16", "bf16") else ns for dt in FORMATS}


def settings(a):
    """The run's settings: run.conf's (options must agree), else the options'."""
    if os.path.lexists(a.run_dir) and not os.path.isdir(a.run_dir):
        raise Usage(f"'{a.run_dir}' is not a directory")
    conf_path = os.path.join(a.run_dir, "run.conf")
    opt_n = comma_list(a.n, "--n", size_item) if a.n is not None else None
    opt_dt = comma_list(a.dtype, "--dtype", dtype_item) if a.dtype is not None else None
    if a.op is not None and a.op not in CALLS:
        raise Usage(f"--op: '{a.op[:20]}' is no operation with a PyTorch call ({', '.join(CALLS)})")
    if a.preset is not None and a.preset not in ("tiny", "quick", "full"):
        raise Usage(f"--preset: '{a.preset[:20]}' is not tiny, quick or full")
    if a.ddof is not None and not 0 <= a.ddof <= DDOF_MAX:
        raise Usage(f"--ddof: {a.ddof} is not in [0, {DDOF_MAX}]")
    if a.reps is not None and not 1 <= a.reps <= 1000000:
        raise Usage(f"--reps: {a.reps} is not in [1, 1000000]")
    if a.seed is not None and not 0 <= a.seed < (1 << 64):
        raise Usage(f"--seed: {a.seed} is not in [0, 2^64)")
    if os.path.lexists(conf_path):
        c = read_runconf(conf_path)
        if c["experiment"] not in ("all", "throughput-vs-n"):
            raise Usage(f"{conf_path}: the run is '{c['experiment']}', which has no throughput-vs-n")
        for name, given, have in (("--op", a.op, c["op"]), ("--ddof", a.ddof, c["ddof"]),
                                  ("--preset", a.preset, c["preset"]), ("--n", opt_n, c["n"]),
                                  ("--dtype", opt_dt, c["dtypes"]), ("--seed", a.seed, c["seed"])):
            if given is not None and given != have:
                raise Usage(f"{name} disagrees with {conf_path} (the run's settings are used: leave it out)")
        reps = a.reps or c["reps"]
    else:
        c = {"op": a.op or "sum", "ddof": DDOF_DEFAULT if a.ddof is None else a.ddof,
             "preset": a.preset or "full", "n": opt_n or [], "dtypes": opt_dt or [],
             "seed": 20261129 if a.seed is None else a.seed}
        reps = a.reps
    c["reps"] = reps or (10 if c["preset"] == "full" else 5)
    c["sizes"] = {dt: ns for dt, ns in sizes(c["preset"], c["n"]).items() if not c["dtypes"] or dt in c["dtypes"]}
    return c


def call_of(torch, op, ddof):
    """The call on the input arrays (x, y)."""
    return {
        "sum": lambda x, y: torch.sum(x),
        "mean": lambda x, y: torch.mean(x),
        "var": lambda x, y: torch.var(x, correction=ddof),
        "std": lambda x, y: torch.std(x, correction=ddof),
        "max": lambda x, y: torch.amax(x),
        "min": lambda x, y: torch.amin(x),
        "lse": lambda x, y: torch.logsumexp(x, dim=0),
        "norm2": lambda x, y: torch.linalg.vector_norm(x),
        "dot": lambda x, y: torch.dot(x, y),
    }[op]


class Timer:
    """Device time of one call, as kernels/gpu_harness.cu times a variant: an L2 flush and a spin
    enqueued before the start event."""

    def __init__(self, torch, dev):
        self.torch = torch
        props = torch.cuda.get_device_properties(dev)
        l2 = getattr(props, "L2_cache_size", 0) or (64 << 20)
        self.flush_buf = torch.zeros(2 * l2 // 4, dtype=torch.float32, device=dev)
        khz = getattr(props, "clock_rate", 0) or 2000000
        self.spin = int(SPIN_S * khz * 1e3) if hasattr(torch.cuda, "_sleep") else 0

    def times_ms(self, fn, reps):
        torch = self.torch
        for _ in range(WARMUP):
            fn()
        ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(reps)]
        for e0, e1 in ev:
            torch.sum(self.flush_buf)          # a read of 2 x L2: the input leaves L2
            if self.spin:
                torch.cuda._sleep(self.spin)
            e0.record()
            fn()
            e1.record()
        torch.cuda.synchronize()
        return [e0.elapsed_time(e1) for e0, e1 in ev]


def measure(torch, dev, c):
    """The rows of the CSV, as lists of strings; a format whose input or call fails is said on
    stderr and left out."""
    op = c["op"]
    name, family, inputs = CALLS[op]
    fn = call_of(torch, op, c["ddof"])
    tdt = {"f32": torch.float32, "f64": torch.float64, "f16": torch.float16, "bf16": torch.bfloat16}
    timer = Timer(torch, dev)
    rows = []
    for dt, ns in c["sizes"].items():
        if not ns:
            continue
        try:
            g = torch.Generator(device=dev)
            g.manual_seed(c["seed"])
            gen_dt = torch.float64 if dt == "f64" else torch.float32
            scale = LOGITS_SIGMA if family == "logits" else 1.0
            arrays = [(torch.randn(max(ns), generator=g, device=dev, dtype=gen_dt) * scale).to(tdt[dt])
                      for _ in range(inputs)]
        except RuntimeError as e:
            print(f"{PROG}: {dt} input of n = {max(ns)} not made on {dev}: {str(e).splitlines()[0][:200]}: "
                  f"no {dt} rows", file=sys.stderr)
            continue
        for n in ns:
            x = arrays[0][:n]
            y = arrays[1][:n] if inputs == 2 else None
            try:
                t = timer.times_ms(lambda: fn(x, y), c["reps"])
            except RuntimeError as e:
                print(f"{PROG}: {name} on {dt} n = {n}: {str(e).splitlines()[0][:200]}: no row", file=sys.stderr)
                continue
            med = float(f"{statistics.median(t):.9g}")
            if not med > 0:
                print(f"{PROG}: {name} on {dt} n = {n}: a median time of {med} ms: no row", file=sys.stderr)
                continue
            gbps = n * SIZE[dt] * inputs / (med * 1e6)
            rows.append([op, name, family, dt, str(n), str(c["ddof"]) if op in ("var", "std") else "",
                         str(c["seed"]), str(c["reps"]), f"{med:.9g}", f"{min(t):.9g}", f"{max(t):.9g}",
                         f"{gbps:.9g}", torch.__version__])
        del arrays
        torch.cuda.empty_cache()
    return rows


def write_whole(path, text):
    """text into path: a temporary file beside it, fsync, rename."""
    tmp = os.path.join(os.path.dirname(path) or ".", ".throughput_torch.csv.part")
    try:
        with open(tmp, "w", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def main(argv=None):
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("run_dir", metavar="RUN_DIR")
    ap.add_argument("--reps", type=int)
    ap.add_argument("--op")
    ap.add_argument("--ddof", type=int)
    ap.add_argument("--preset")
    ap.add_argument("--dtype")
    ap.add_argument("--n")
    ap.add_argument("--seed", type=int)
    ap.add_argument("--device", default="cuda")
    a = ap.parse_args(argv)
    try:
        if not re.fullmatch(r"cuda(:[0-9]{1,2})?", a.device):
            raise Usage(f"--device: '{a.device[:20]}' is not cuda or cuda:N")
        c = settings(a)
    except Usage as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    try:
        import torch
    except ImportError:
        print(f"{PROG}: PyTorch is not installed: no {CALLS[c['op']][0]} series (nothing written)", file=sys.stderr)
        return 77
    if not torch.cuda.is_available():
        print(f"{PROG}: PyTorch has no CUDA device: no {CALLS[c['op']][0]} series (nothing written)", file=sys.stderr)
        return 77
    index = int(a.device[5:]) if ":" in a.device else torch.cuda.current_device()
    if index >= torch.cuda.device_count():
        print(f"{PROG}: --device {a.device}: PyTorch sees {torch.cuda.device_count()} CUDA devices", file=sys.stderr)
        return 2
    dev = torch.device("cuda", index)      # with its index: set_device refuses a bare "cuda"
    torch.cuda.set_device(dev)
    if not re.fullmatch(r"[0-9a-z.+_]{1,40}", torch.__version__):
        print(f"{PROG}: PyTorch's version '{torch.__version__[:40]}' is not one the study reads", file=sys.stderr)
        return 1
    rows = measure(torch, dev, c)
    if not rows:
        print(f"{PROG}: no row measured: {a.run_dir}/throughput_torch.csv not written", file=sys.stderr)
        return 1
    text = "".join(",".join(r) + "\n" for r in [COLUMNS] + rows)
    path = os.path.join(a.run_dir, "throughput_torch.csv")
    try:
        os.makedirs(a.run_dir, exist_ok=True)
        write_whole(path, text)
    except OSError as e:
        print(f"{PROG}: cannot write {path}: {e.strerror}", file=sys.stderr)
        return 1
    print(f"{PROG}: {len(rows)} rows of {CALLS[c['op']][0]} ({torch.cuda.get_device_name(dev)}) written to {path}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
