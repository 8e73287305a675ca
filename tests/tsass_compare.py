#!/usr/bin/env python3
"""tsass_compare.py: experiments/sass_compare.py on made-up cuobjdump listings (the same code
under other translation-unit hashes, addresses and encodings is the same; a changed, added or
removed instruction, function or object is reported with both counts; bad input exits 2) and
experiments/sass_same.sh's refusals (no such commit, no cuobjdump: exit 2, nothing built).
  usage: tsass_compare.py SOURCE_DIR"""
import os
import subprocess
import sys
import tempfile

src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
cmp_py = os.path.join(src, "experiments", "sass_compare.py")
same_sh = os.path.join(src, "experiments", "sass_same.sh")
results = []   # (passed, what) of each check, in order
check = lambda cond, what: results.append((bool(cond), what))  # noqa: E731


def listing(funcs, h="1ab03eda", addr0=0):
    """A cuobjdump -sass text: funcs {name: [instruction, ...]}; names may hold {h}."""
    out = ["", "Fatbin elf code:", "================", "arch = sm_90", ""]
    a = addr0
    for name, insns in funcs.items():
        out.append(f"        Function : {name.format(h=h)}")
        out.append("        .headerflags    @\"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)\"")
        for i in insns:
            out.append(f"        /*{a:04x}*/                   {i} ;   /* 0x{(a * 7919) & 0xffffffff:016x} */")
            out.append(f"                                                       /* 0x{(a * 104729) & 0xffffffff:016x} */")
            a += 16
    return "\n".join(out) + "\n"


def write(d, rel, text):
    p = os.path.join(d, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text)


def run(*args):
    r = subprocess.run([sys.executable, cmp_py, *args], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


K = "_ZN38_GLOBAL__N__{h}_6_lse_cu_a9dd1c7b15lse_rep1_kernelIfEEvPKT_mmmPh"
L = "_ZN3cub18CUB_300000_SM_900_INTERNAL_{h}_6detail11EmptyKernelIvEEvv"
base_f = {K: ["LDG.E.128 R4, desc[UR4][R2.64]", "FADD R0, R4, R5", "EXIT"], L: ["EXIT"]}
with tempfile.TemporaryDirectory() as t:
    A, B = os.path.join(t, "a"), os.path.join(t, "b")
    write(A, "kernels/lse.cu.o.sass", listing(base_f, "1ab03eda", 0))
    write(B, "kernels/lse.cu.o.sass", listing(base_f, "9f00c3b1", 0x40))
    rc, out = run(A, B)
    check(rc == 0 and "same: 2 functions in 1 objects" in out,
          f"other hashes, addresses and encodings: the same (rc {rc}: {out.strip()})")

    changed = dict(base_f)
    changed[K] = ["LDG.E.128 R4, desc[UR4][R2.64]", "FADD R0, R4, R6", "EXIT"]
    write(B, "kernels/lse.cu.o.sass", listing(changed, "9f00c3b1"))
    rc, out = run(A, B)
    check(rc == 1 and "lse_rep1_kernel" in out and "3 -> 3 instructions" in out and "EmptyKernel" not in out,
          f"one changed register: that function reported, 3 -> 3 (rc {rc}: {out.strip()})")

    grown = dict(base_f)
    grown[K] = base_f[K][:2] + ["NOP", "EXIT"]
    write(B, "kernels/lse.cu.o.sass", listing(grown, "9f00c3b1"))
    rc, out = run(A, B)
    check(rc == 1 and "3 -> 4 instructions" in out, f"an added instruction: 3 -> 4 (rc {rc}: {out.strip()})")

    extra = dict(base_f)
    extra["_Z9new_kernelv"] = ["EXIT"]
    write(B, "kernels/lse.cu.o.sass", listing(extra, "9f00c3b1"))
    write(B, "kernels/rows.cu.o.sass", listing({"_Z4rowsv": ["EXIT"]}))
    rc, out = run(A, B)
    check(rc == 1 and "_Z9new_kernelv: - -> 1 instructions" in out and "kernels/rows.cu.o.sass: only in head" in out,
          f"a new function and a new object: reported (rc {rc}: {out.strip()})")

    os.remove(os.path.join(B, "kernels/rows.cu.o.sass"))
    write(B, "kernels/lse.cu.o.sass", listing({L: ["EXIT"]}, "9f00c3b1"))
    rc, out = run(A, B)
    check(rc == 1 and "lse_rep1_kernel" in out and "3 -> - instructions" in out,
          f"a function gone: reported (rc {rc}: {out.strip()})")

    twice = listing(base_f) + listing({K: ["EXIT"]})
    write(B, "kernels/lse.cu.o.sass", twice)
    rc, out = run(A, B)
    check(rc == 2 and "listed twice" in out, f"a function listed twice: exit 2 (rc {rc}: {out.strip()})")

    E = os.path.join(t, "empty")
    os.makedirs(E)
    rc, out = run(E, A)
    check(rc == 2 and "no .sass listing" in out, f"an empty base: exit 2 (rc {rc}: {out.strip()})")
    rc, out = run(A)
    check(rc == 2, f"one folder only: exit 2 (rc {rc})")

    # sass_same.sh refuses before building anything
    env = dict(os.environ, CUOBJDUMP=os.path.join(t, "no-such-cuobjdump"), SASS_SAME_DIR=os.path.join(t, "w1"))
    r = subprocess.run(["bash", same_sh, "HEAD"], capture_output=True, text=True, env=env, cwd=src)
    check(r.returncode == 2 and "no cuobjdump" in r.stderr and not os.path.exists(os.path.join(t, "w1", "build-base")),
          f"sass_same.sh without cuobjdump: exit 2 (rc {r.returncode}: {r.stderr.strip()})")
    stub = os.path.join(t, "cuobjdump")
    with open(stub, "w") as f:
        f.write("#!/bin/sh\nexit 0\n")
    os.chmod(stub, 0o755)
    env = dict(os.environ, CUOBJDUMP=stub, SASS_SAME_DIR=os.path.join(t, "w2"))
    for args in (["no-such-commit-name"], ["HEAD", "no-such-commit-name"]):
        r = subprocess.run(["bash", same_sh, *args], capture_output=True, text=True, env=env, cwd=src)
        check(r.returncode == 2 and "is not a commit" in r.stderr and not os.path.exists(os.path.join(t, "w2")),
              f"sass_same.sh {' '.join(args)}: exit 2, nothing made (rc {r.returncode}: {r.stderr.strip()})")
    r = subprocess.run(["bash", same_sh], capture_output=True, text=True, env=env, cwd=src)
    check(r.returncode == 2 and "usage" in r.stderr, f"sass_same.sh without arguments: usage, exit 2 (rc {r.returncode})")

failed = [what for ok, what in results if not ok]
for what in failed:
    print("FAIL:", what)
print(f"tsass_compare: {len(results) - len(failed)} passed, {len(failed)} failed")
sys.exit(1 if failed else 0)
