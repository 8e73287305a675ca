#!/usr/bin/env bash
# What produced this folder: four device passes on the H200 machine's CPU (Intel Xeon, 16 cores
# lent, 2 MB L2 a core, 300 MB L3; lscpu.txt), each on a freshly started machine. No build there:
# sumlab was built here CPU-only (Debian 12, gcc 12.2, `cmake -DSUMLAB_ENABLE_CUDA=OFF`, Release),
# copied with its MPFR, GMP, cJSON and zlib libraries into an ignored folder that travelled, and
# run as passN/run.sh shows (LD_LIBRARY_PATH at the copied libraries). "head" is c17eb3c (the
# reference as the session found it); "new" is
#   pass1: be16205 (float32 integer bins)             pass2: 52038f8 (+ float64 carry-counted bins)
#   pass3: 9db0ae5 (float32 integer bins taken out)   pass4: df3261c (+ the L1 prefetch on Intel)
# In every pass each command ran alternately for head and new, in rounds; one row per command:
S=sumlab
FULL="--dataset log-uniform --param emin=-1100 --param emax=1100 --param subnormals=1"
$S bench --backend cpu --dtype f64 --n 2^24 --reps 21 --threads 1 --variants loop,exact $FULL       # bench_full.csv (f32 too)
$S bench --backend cpu --dtype f64 --n 2^24 --reps 21 --threads 1 --variants loop,exact --dataset uniform   # bench_other.csv: uniform, ill-conditioned cond=1e16, subnormal
$S bench --backend cpu --dtype f64 --n 2^24 --reps 21 --threads 16 --variants loop,exact-threads $FULL   # bench16.csv (every family, both formats)
# (pass1: --reps 10 --threads 16 --variants loop,exact,exact-threads in one command, bench.csv)
# mb2.txt: harness/mb2.c (see its header), e.g.
PF=8192 mb2 f64 log-uniform 16777216 15 emin=-1100 emax=1100 subnormals=1
