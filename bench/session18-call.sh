# Device calls written 2026-12-07 (eighteenth session). Carry build-deps, build-bundles-ch
# (the clip-hull kernels: bench/patches/clip-hull.patch on 766f35d, bundled with the lists in
# bench/session17-call.sh PART=3 plus bench/sweep-tcgen05-early.txt) and build-bundles-main
# (766f35d's bench/perf-default.txt and bench/perf-sm120.txt), and build-bench (a copy of ../shared/bench/anchors.py, for PyTorch's backends).
# Ran on 2026-12-07: 1, 2, 3, 5. Not run (device time out): 6, 7, 9 (PART=8 runs all three). For
# them on main, from a fresh checkout (the bundle folders are not in git):
#   bash scripts/setup.sh; bash scripts/build.sh; bash scripts/gpu-deps.sh
#   mkdir -p build-bench && cp ../shared/bench/anchors.py build-bench/
#   OUT=$PWD/build-bundles-ch bash scripts/make-bundles.sh bench/perf-decode-split.txt bench/sweep-tcgen05-early.txt
#   6 needs build-bundles-bw with 766f35d's bw-a-asis (attncc refuses it since 605decc: bundle it
#     from 766f35d, `git worktree add`), the hand edits of bench/bisect-wg-nosplit-hand.txt and
#     sass/a-asis.cubin (ptxas -arch=sm_90a of its PTX); without it, run PART=7 then PART=9.
#   COMMIT=<hash> PART=8 bash bench/session18-call.sh   (carry build-deps, build-bundles-bw,
#     build-bundles-ch, build-bench)
#   1. = bench/session17-call.sh PART=3: the clip-hull sweep and the defaults at full size.
#   2. = bench/session17-call.sh PART=2 (decode serial against LAUNCH=pdl, the wgmma split
#      controls, flash and cuDNN).
#   3. The causal defaults whose kernels clip-hull changes (9 of perf-default and perf-sm120, and
#      alt-s64-c-f2x8), 766f35d against the patch, alternating, 3 rounds; then PyTorch's
#      backends at the same shapes.                                          $OUT/t/
set -u
export COMMIT=${COMMIT:-wip}
PART=${PART:-1}
# PART=1 moves build-bundles-ch to build-bundles itself, 6 uses build-bundles-bw, 8 runs 6 first;
# the others move it here when it was carried.
case "$PART" in 1|6|8) ;; *) if [ -d build-bundles-ch ]; then rm -rf build-bundles && mv build-bundles-ch build-bundles; fi ;; esac
if [ "$PART" = 1 ]; then
  PART=3 PART_BUDGET=${PART_BUDGET:-460} FULL_TIMEOUT=60 bash bench/session17-call.sh
fi
if [ "$PART" = 2 ]; then
  PART=2 ABAB_TIMEOUT=150 bash bench/session17-call.sh
fi
if [ "$PART" = 3 ]; then
  mkdir -p $OUT/t
  B=""
  for b in def-s64-c def-d128-4096-c def-d128-8192-c def-d128-16384-c def-gqa-4096-c alt-s64-c-f2x8 \
           s120-s64-c s120-d128-8192-c s120-gqa-4096-c; do
    B="$B build-bundles-main/$b build-bundles/$b"
  done
  OUT=$OUT/t BUNDLES="$B" ROUNDS=3 BENCH=30 COMMIT_OLD=766f35d NOTE="clip-hull.patch: old = 766f35d, new = the patch on it" \
    timeout ${ABAB_TIMEOUT:-330} bash scripts/gpu-abab.sh 2>&1 | tail -22
  NO_FLEX=1 timeout 120 python3 scripts/anchors-all.py 1,8,8,4096,4096,64,f16,causal 8,16,16,4096,4096,128,bf16,causal \
    4,16,16,8192,8192,128,bf16,causal 2,16,16,16384,16384,128,bf16,causal 4,32,8,4096,4096,128,bf16,causal \
    > $OUT/t/anchors.jsonl 2>/tmp/anch.err || tail -3 /tmp/anch.err
  python3 -c "
import json
for l in open('$OUT/t/anchors.jsonl'):
    r=json.loads(l); print(r['shape'], r['causal'], 'flash', r.get('flash_us'), 'cudnn', r.get('cudnn_us'))
" || true
  rm -f $OUT/t/gpu.txt
fi
#   5. The bisect of wg-nosplit's failure (bench/bisect-wg-nosplit.txt, bundled from 766f35d into
#      build-bundles-bw; carry build-deps and build-bundles-bw), then memcheck and racecheck of
#      the failing line.                                                      $OUT/bw/
if [ "$PART" = 5 ]; then
  rm -rf build-bundles && mv build-bundles-bw build-bundles
  mkdir -p $OUT/bw
  OUT=$OUT/bw SWEEP=bench/bisect-wg-nosplit.txt FULL="" LADDER="" SAN="bw-a-asis" CONTROLS="" REFS="" STEP_TIMEOUT=60 \
    SAN_TIMEOUT=60 timeout 240 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -16
  python3 scripts/results-json.py $OUT/bw --what "bench/session18-call.sh PART=5: the bisect of wg-nosplit's failure" > /dev/null 2>&1 || echo results-json failed
  python3 - $OUT/bw <<'PY'
import json, sys
for l in open(sys.argv[1] + "/verify.jsonl"):
    r = json.loads(l); print(r.get("status"), r.get("bundle"), r.get("shape"), r.get("error", "")[:100], "o", r.get("max_err"), "lse", r.get("lse_err"))
PY
  rm -f $OUT/bw/gpu.txt
fi
#   6. Hand-edited copies of bw-a-asis (bench/bisect-wg-nosplit-hand.txt: e1 pins the Q fragment's
#      registers before wgmma.fence, e3 waits after every Q.K wgmma, e4 fences before every one),
#      and the SASS of ptxas's cubins of bw-a-asis and bw-f-n64 (made on the CPU). Carry
#      build-deps and build-bundles-bw.                                       $OUT/hx/
if [ "$PART" = 6 ]; then
  rm -rf build-bundles && mv build-bundles-bw build-bundles
  mkdir -p $OUT/hx
  OUT=$OUT/hx SWEEP=bench/bisect-wg-nosplit-hand.txt FULL="" LADDER="" SAN="" CONTROLS="" REFS="" STEP_TIMEOUT=60 \
    timeout 120 bash scripts/gpu-verify.sh 2>&1 | grep -E "NOT OK|verify:"
  python3 - $OUT/hx <<'PY'
import json, sys
for l in open(sys.argv[1] + "/verify.jsonl"):
    r = json.loads(l); print(r.get("status"), r.get("bundle"), "o", r.get("max_err"), "lse", r.get("lse_err"))
PY
  python3 scripts/results-json.py $OUT/hx --what "bench/session18-call.sh PART=6: hand-edited copies of bw-a-asis" > /dev/null 2>&1 || echo results-json failed
  rm -f $OUT/hx/gpu.txt
  for c in build-bundles/sass/*.cubin; do
    (cuobjdump -sass "$c" || /usr/local/cuda/bin/cuobjdump -sass "$c") > $OUT/hx/$(basename "$c" .cubin).sass 2>&1
  done
  rm -rf build-bundles
fi
#   7. The decode split counts (bench/perf-decode-split.txt, in build-bundles-ch), alternating, two
#      rounds; the decode defaults at full size; PyTorch's flash and cuDNN.    $OUT/dg/
if [ "$PART" = 7 ]; then
  mkdir -p $OUT/dg
  B=$(grep -v '^#' bench/perf-decode-split.txt | cut -d'|' -f1 | tr -d ' ' | sed '/^$/d' | sed 's|^|build-bundles/|' | tr '\n' ' ')
  OUT=$OUT/dg BUNDLES="$B" ROUNDS=2 BENCH=30 NOTE="decode split counts" timeout 120 bash scripts/gpu-abab.sh 2>&1 | tail -11
  # The decode defaults since 9ec7790 (dg-mqa-g16, dg-128k-g64) and the 8x32k one, at full size
  # against the fp32 GPU reference (the abab above only timed them).
  source scripts/gpu-build-runner.sh > /dev/null 2>&1
  for b in dg-mqa-g16 dg-128k-g64 dg-8x32k-g16; do
    timeout 60 $R --gpu-reference --json $OUT/dg/verify.jsonl build-bundles/$b | tail -1 | cut -c1-150 || echo "full: $b FAILED or timed out"
  done
  python3 scripts/results-json.py $OUT/dg --what "bench/session18-call.sh PART=7: the decode defaults at full size" > /dev/null 2>&1 || echo results-json failed
  # (PART=2 measured PyTorch at the other three shapes in this session)
  NO_FLEX=1 timeout 60 python3 scripts/anchors-all.py ${DG_ANCHORS:-64,32,8,1,4096,128,bf16} > $OUT/dg/anchors.jsonl 2>/tmp/anch.err || tail -3 /tmp/anch.err
  python3 -c "
import json
for l in open('$OUT/dg/anchors.jsonl'):
    r=json.loads(l); print(r['shape'], 'flash', r.get('flash_us'), 'cudnn', r.get('cudnn_us'))
" || true
  rm -f $OUT/dg/gpu.txt
fi
#   9. bench/session13-call.sh PART=5 (the OVERLAP=early sweep under emulation, never run before)
#      on the clip-hull kernels, with one sanitizer bundle and shorter limits.  $OUT/e/
if [ "$PART" = 9 ]; then
  mkdir -p $OUT/e
  OUT=$OUT/e SWEEP=bench/sweep-tcgen05-early.txt FULL="" LADDER="" SAN="ea-cr-q2-k14" CONTROLS="" \
    REFS="" STEP_TIMEOUT=60 SAN_TIMEOUT=70 timeout ${EARLY_TIMEOUT:-230} bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -12
  python3 scripts/results-json.py $OUT/e --what "bench/session18-call.sh PART=9 (bench/session13-call.sh PART=5): bench/sweep-tcgen05-early.txt (OVERLAP=early) under emulation with the clip-hull kernels; memcheck and racecheck of ea-cr-q2-k14" > /dev/null 2>&1 || echo results-json failed
  rm -f $OUT/e/gpu.txt
fi
#   8. 6, then 7 and 9 (SKIP9=1: not 9) in one call. Carry build-deps, build-bundles-bw and build-bundles-ch.
if [ "$PART" = 8 ]; then
  PART=6 bash "$0"
  PART=7 bash "$0"   # the top of the script moved build-bundles-ch to build-bundles
  [ "${SKIP9:-0}" = 1 ] || PART=9 bash "$0"
fi
