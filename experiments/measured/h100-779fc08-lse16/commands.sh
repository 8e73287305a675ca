#!/usr/bin/env bash
# One NVIDIA H100 80GB HBM3 (CUDA 13.0, 16 cores; asked for as any one GPU), one call on a fresh
# machine (423 s), the tree at 779fc08. SUMLAB_GIT_SHA given literally.
#   tests.txt      the switches build's tests (tsuperacc_gpu, trows_gpu, the quick twins of every
#                  format): 0 failed
#   ab_lse16.log   the default build (A) against the build with SUMLAB_TICKET_ACQ_REL and
#                  SUMLAB_LSE_PIPELINE ON (B), 2 rounds alternated, 16-bit lse on `logits` by the
#                  ratio to the read (the ticket's fence does not touch these kernels' loops)
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=779fc08d9b3eab404e667fd63568694a748af2a6
SUMLAB_BUILD_TARGETS="sumlab" SESSION_SECONDS=470 SWITCHES_AB="ab_lse16" bash tests/gpu_session.sh build,switches
# ab_lse16 is, in gpu_session.sh's switches stage:
#   BENCH_AB_DTYPES="bf16 f16" BENCH_AB_RATIO=ratio_read bash experiments/bench_ab.sh A/sumlab B/sumlab OUT 2 -- \
#     --op lse --n 2^24,2^28 --reps 20 --dataset logits --variants online,two-pass,accurate
