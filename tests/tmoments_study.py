#!/usr/bin/env python3
"""tmoments_study.py: the studies of the moments on the CPU backend (`sumlab run all --op OP
--preset tiny`): var and std sweep offset-normal's kappa up to each format's reach (tiny: every
tenth value and the last, float32 1 and 1e7, float64 1, 1e12 and 1e15; quick float16 1, 100, 1000
and bfloat16 1, 100), the rows' cond column holding the realised kappa; accuracy-vs-n runs the
moments' own families (squares that overflow and underflow, constants, two values, outliers,
heavy tails); the report names kappa, says per format up to which kappa each variant stays
faithful, lists the textbook variance's NaN on square-range among the
non-finite results and the standard deviation's 0 on tiny among the results exactly 0; the mean
sweeps the sum's ill-conditioned; max runs all-negative data, where zero-fill's 0 is a bound
violation printed in the findings, and says that it has no condition number to sweep; the run's
notes are kept (run_notes.txt) for --report-only, which renders them again (markup in a note as
text), refuses a notes file it did not write and reports a run without one.
  usage: tmoments_study.py PATH/TO/sumlab"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from study_check import check, done, run_study, section as section_lines

sumlab = sys.argv[1]


def run(out, op, *args):
    rows = run_study(sumlab, out, op, *args)
    with open(os.path.join(out, "report.md")) as f:
        return rows, f.read()


def section(md, title):
    return "\n".join(section_lines(md, title))


def fam_set(rows, exp):
    return {r["dataset"] for r in rows if r["experiment"] == exp}


VAR_FAMILIES = {"offset-normal", "square-range", "tiny", "constant", "two-values", "outliers", "student-t",
                "uniform", "normal"}
tmp = tempfile.mkdtemp(prefix="tmoments_study.")
try:
    # ---- var: kappa swept, the moment families, overflow in the non-finite table ----------------
    rows, md = run(os.path.join(tmp, "var"), "var", "all", "--preset", "tiny")
    head = section(md, "Headline")
    check("var report: the headline (legend, S = 0 notes) speaks of the exact value, not the sum",
          "over rows whose exact value S is not 0" in head and "have an exact value S of 0" in head
          and "exact sum" not in head and "cancellation" not in head)
    cond = [r for r in rows if r["experiment"] == "accuracy-vs-cond"]
    check(f"var: accuracy-vs-cond rows ({len(cond)})", len(cond) > 0)
    check("var: every accuracy-vs-cond row of offset-normal, sweep kappa, op var",
          all(r["dataset"] == "offset-normal" and r["sweep"] == "kappa" and r["op"] == "var" for r in cond))
    for dt, want in (("f32", [1.0, 1e7]), ("f64", [1.0, 1e12, 1e15])):
        got = sorted({float(r["sweep_value"]) for r in cond if r["dtype"] == dt})
        check(f"var tiny {dt}: kappa {want} ({got})", got == want)
    check("var: each row's params carry its kappa",
          all(float(re.search(r"(^|;)kappa=([^;]*)", r["params"]).group(2)) == float(r["sweep_value"])
              for r in cond))
    big = [r for r in cond if float(r["sweep_value"]) > 1 and r["variant"] == "exact"]
    check(f"var: the realised kappa (cond) within a factor 1.5 of the asked one "
          f"({[(r['sweep_value'], r['cond']) for r in big]})",
          big and all(1 / 1.5 < float(r["cond"]) / float(r["sweep_value"]) < 1.5 for r in big))

    def at(variant, dt, kappa):
        return [r for r in cond if r["variant"] == variant and r["dtype"] == dt and float(r["sweep_value"]) == kappa]
    tb, cr = at("textbook", "f32", 1e7), at("correct", "f32", 1e7)
    check(f"var f32 kappa 1e7: textbook has no correct digit ({[r['ulps'] for r in tb]}), correct is the "
          f"exact value's bits ({[(r['result_hex'], r['exact_hex']) for r in cr]})",
          tb and all(float(r["ulps"]) > 1e6 for r in tb) and cr and
          all(r["result_hex"] == r["exact_hex"] for r in cr))
    check(f"var: accuracy-vs-n runs the moments' families ({sorted(fam_set(rows, 'accuracy-vs-n'))})",
          fam_set(rows, "accuracy-vs-n") == VAR_FAMILIES)
    check("var report: the sweep section by kappa",
          "## Sweeps: error by kappa and by dynamic range" in md and
          re.search(r"^\| variant \| kappa 1 \| kappa 1e\+07 \|$", md, re.M) is not None)
    nf = section(md, "Non-finite results where the exact value is finite")
    check("var report: textbook's NaN on square-range (float32) in the non-finite table",
          re.search(r"^\| textbook \| var \| f32 \| \d+ \| \d+ \| [1-9]\d* \| \d+ \| [^\n]*`square-range`", nf, re.M)
          is not None)
    sq = [r for r in rows if r["dataset"] == "square-range" and r["variant"] == "textbook" and r["dtype"] == "f32"]
    check("var: textbook on square-range f32 is NaN, its exact value finite",
          sq and all("nan" in r["result_hex"] and "inf" not in r["exact_hex"] for r in sq))
    check("var report: no bound violation (every variant within its bound on every family and kappa)",
          "Findings" in md and "**Bound violations" not in section(md, "Findings"))
    adv = section(md, "What to use, per format")
    m = re.search(r"^### f32\n(.*?)(?=^### |\Z)", adv, re.M | re.S)
    line = re.search(r"^- Faithful \(within 1 ulp on every row\) as `kappa` grows[^\n]*", m.group(1) if m else "", re.M)
    line = line.group(0) if line else ""
    check(f"var report, what to use in f32: correct faithful at every kappa, textbook only up to kappa 1 ({line})",
          re.search(r"at every kappa swept \(to 1\.00e\+07\): [^;]*`correct`", line) is not None and
          re.search(r"up to kappa 1 \(not at 1\.00e\+07\): [^;]*`textbook`", line) is not None)

    # ---- std: squares that underflow give 0 where the exact value is not ----------------------
    rows, md = run(os.path.join(tmp, "std"), "std", "all", "--preset", "tiny")
    tiny = [r for r in rows if r["dataset"] == "tiny" and r["dtype"] == "f32" and r["experiment"] == "accuracy-vs-n"]
    zero = {r["variant"] for r in tiny if r["result_hex"] == "0x0p+0" and r["exact_hex"] != "0x0p+0"}
    ok = {r["variant"] for r in tiny if r["result_hex"] and r["result_hex"] == r["exact_hex"]}
    check(f"std f32 tiny: textbook, two-pass, welford give 0 ({sorted(zero)}); the float64 forms and correct "
          f"the exact value ({sorted(ok)})",
          {"textbook", "two-pass", "welford"} <= zero and {"textbook-f64", "two-pass-f64", "correct"} <= ok)
    z = section(md, "Results exactly 0 or non-finite against a non-zero exact sum")
    check("std report: textbook among the results exactly 0",
          re.search(r"^\| textbook \| [1-9]\d* \| \d+ \|", z, re.M) is not None)
    check("std: accuracy-vs-cond sweeps kappa",
          {r["sweep"] for r in rows if r["experiment"] == "accuracy-vs-cond"} == {"kappa"})

    # ---- the 16-bit formats' reach (quick: every other value and the last) ---------------------
    rows, md = run(os.path.join(tmp, "half"), "var", "accuracy-vs-cond", "--preset", "quick", "--dtype",
                   "f16,bf16", "--n", "1024", "--variants", "exact,textbook")
    for dt, want in (("f16", [1.0, 100.0, 1000.0]), ("bf16", [1.0, 100.0])):
        got = sorted({float(r["sweep_value"]) for r in rows if r["dtype"] == dt})
        check(f"var quick {dt}: kappa {want} ({got})", got == want)
    check("var quick 16-bit: every row ok", rows and all(r["status"] == "ok" for r in rows))

    # ---- mean: the sum's condition number ---------------------------------------------------
    rows, md = run(os.path.join(tmp, "mean"), "mean", "all", "--preset", "tiny", "--variants", "exact,naive,correct")
    cond = [r for r in rows if r["experiment"] == "accuracy-vs-cond"]
    check(f"mean: accuracy-vs-cond on ill-conditioned by cond ({len(cond)} rows)",
          cond and all(r["dataset"] == "ill-conditioned" and r["sweep"] == "cond" for r in cond))
    check(f"mean: accuracy-vs-n has overflow and the moments' families ({sorted(fam_set(rows, 'accuracy-vs-n'))})",
          {"overflow", "offset-normal", "square-range", "constant"} <= fam_set(rows, "accuracy-vs-n"))

    # ---- max: all-negative data, zero-fill's 0 a bound violation ----------------------------
    rows, md = run(os.path.join(tmp, "max"), "max", "all", "--preset", "tiny")
    neg = [r for r in rows if r["dataset"] == "negative" and r["variant"] == "zero-fill"]
    check("max: zero-fill on negative returns +0 against a negative maximum",
          neg and all(r["result_hex"] == "0x0p+0" and r["exact_hex"].startswith("-0x1") for r in neg))
    br = [r for r in rows if r["dataset"] == "negative" and r["variant"] == "block-reduce"]
    check("max: block-reduce on negative gives the exact maximum",
          br and all(r["result_hex"] == r["exact_hex"] for r in br))
    check("max report: zero-fill's bound violation on negative in the findings",
          re.search(r"\*\*Bound violations[^\n]*\n\s+- `zero-fill`[^\n]*`zero-fill` accuracy-vs-n negative",
                    section(md, "Findings")) is not None)
    check("max report: accuracy-vs-cond skipped, no condition number",
          "accuracy-vs-cond (skipped: the operation has no condition number to sweep)" in md)

    # ---- --dtype beyond the preset's formats: honoured; an experiment with nothing to run is
    # said to be so (not "not reached, the run stopped before it") ------------------------------
    rows, md = run(os.path.join(tmp, "var16"), "var", "all", "--preset", "tiny", "--dtype", "f16,bf16",
                   "--variants", "exact,two-pass,correct")
    dts = {r["dtype"] for r in rows if r["experiment"] == "accuracy-vs-n"}
    check(f"var tiny --dtype f16,bf16: accuracy-vs-n in both ({sorted(dts)})", dts == {"f16", "bf16"})
    check("var tiny --dtype f16,bf16: determinism (f32/f64 only) has nothing to measure, said so",
          "determinism (no rows: nothing to measure under this run's settings, see Notes)" in md
          and "- determinism: nothing to measure under this run's settings (preset tiny, --dtype f16,bf16)" in md)
    exps = next((l for l in md.splitlines() if l.startswith("- experiments:")), "")
    check(f"var tiny --dtype f16,bf16: no experiment called not reached ({exps[:300]})",
          exps and "not reached" not in exps)
    # the notes are kept (run_notes.txt): --report-only renders the same Notes and experiments line
    d16 = os.path.join(tmp, "var16")
    os.remove(os.path.join(d16, "report.md"))
    p = subprocess.run([sumlab, "run", "--report-only", "-o", d16, "-q"], capture_output=True, text=True)
    with open(os.path.join(d16, "report.md")) as f:
        md2 = f.read()
    check(f"--report-only: exits 0 ({p.returncode}: {p.stderr[:200]})", p.returncode == 0)
    check("--report-only: the run's notes again (nothing to measure, not 'not reached')",
          "determinism (no rows: nothing to measure under this run's settings, see Notes)" in md2
          and "- determinism: nothing to measure under this run's settings (preset tiny, --dtype f16,bf16)" in md2
          and section(md2, "Notes") == section(md, "Notes"))
    # markup in a notes file stays text: no link, image or raw HTML reaches the report
    notes = os.path.join(d16, "run_notes.txt")
    with open(notes, "a") as f:
        f.write("see [here](javascript:alert(1)) and ![x](http://e/x.png) <b>bold</b> \\[\n")
    os.remove(os.path.join(d16, "report.md"))
    p = subprocess.run([sumlab, "run", "--report-only", "-o", d16, "-q"], capture_output=True, text=True)
    with open(os.path.join(d16, "report.md")) as f:
        md3 = f.read()
    check(f"--report-only with markup in a note: exit 0 ({p.returncode}: {p.stderr[:200]})", p.returncode == 0)
    check("a note's markup escaped in report.md (no link, image or tag)",
          "- see \\[here\\](javascript:alert(1)) and !\\[x\\](http://e/x.png) \\<b\\>bold\\</b\\> \\\\\\[" in md3
          and "[here](" not in md3 and "<b>" not in md3)
    # a notes file this did not write: one message, exit 2, no report
    for what, content in (("another header", "# not sumlab\nx\n"), ("a control character", None),
                          ("a line without its end", "# sumlab run notes v1\nno newline"),
                          ("a link", "link")):
        os.remove(notes)
        if content == "link":
            os.symlink(os.path.join(d16, "run.conf"), notes)
        elif content is None:
            with open(notes, "wb") as f:
                f.write(b"# sumlab run notes v1\na \x1b[31m note\n")
        else:
            with open(notes, "w") as f:
                f.write(content)
        os.remove(os.path.join(d16, "report.md"))
        p = subprocess.run([sumlab, "run", "--report-only", "-o", d16, "-q"], capture_output=True, text=True)
        check(f"run_notes.txt with {what}: exit 2, one message naming the file, no report "
              f"({p.returncode}: {p.stderr.strip()[:200]})",
              p.returncode == 2 and "run_notes.txt" in p.stderr and len(p.stderr.strip().splitlines()) == 1
              and not os.path.exists(os.path.join(d16, "report.md")))
        with open(os.path.join(d16, "report.md"), "w") as f:
            f.write("")
    # a run from before run_notes.txt (none there): reported, without the run's notes
    os.remove(notes)
    os.remove(os.path.join(d16, "report.md"))
    p = subprocess.run([sumlab, "run", "--report-only", "-o", d16, "-q"], capture_output=True, text=True)
    md4 = open(os.path.join(d16, "report.md")).read() if os.path.exists(os.path.join(d16, "report.md")) else ""
    check(f"no run_notes.txt (an older run): --report-only exits 0 with a report ({p.returncode}: {p.stderr[:200]})",
          p.returncode == 0 and "## Files" in md4 and "nothing to measure under this run's settings (preset" not in md4)
finally:
    shutil.rmtree(tmp, ignore_errors=True)

sys.exit(done())
