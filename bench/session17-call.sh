# Device calls written 2026-12-07 (seventeenth session). Bundle first (carry build-deps, build-bundles):
#   bash scripts/gpu-deps.sh
#   OUT=build-bundles bash scripts/make-bundles.sh bench/sweep-tc.txt bench/sweep-tma.txt \
#     bench/sweep-wgmma.txt bench/sweep-tma-mma.txt bench/sweep-tcgen05-rungs.txt \
#     bench/perf-default.txt bench/perf-sm120.txt bench/san-tcgen05.txt
#   COMMIT=<hash> PART=1 bash bench/session17-call.sh
set -u
export COMMIT=${COMMIT:-wip}
PART=${PART:-1}
#   1. The mask conjunction (attncc-split-mask, one select of the conditions' conjunction) on
#      main: the tensor-core sweeps (mma.sync, TMA, wgmma, TMA+mma, every tcgen05 rung and the
#      sm_100a default under emulation) against the float64 reference; then the defaults at full
#      size against the fp32 GPU reference, one runner call per bundle (masked shapes first), so
#      that a slow one costs only itself; then memcheck of the sm_100a default (sdef-d128) while
#      time is left. Session 16 ran the sweep on the same change (179/179) but lost its files.
#                                                                           $OUT/m/
if [ "$PART" = 1 ]; then
  mkdir -p $OUT/m
  t0=$(date +%s)
  OUT=$OUT/m SWEEP="bench/sweep-tc.txt bench/sweep-tma.txt bench/sweep-wgmma.txt bench/sweep-tma-mma.txt bench/sweep-tcgen05-rungs.txt" \
    FULL="" LADDER="" SAN="" CONTROLS="" REFS="" STEP_TIMEOUT=150 \
    timeout 330 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -8
  echo "[sweep done at $(( $(date +%s) - t0 )) s]"
  source scripts/gpu-build-runner.sh > /dev/null 2>&1
  for b in def-s64-c def-d128-4096-c def-gqa-4096-c s120-s64-c s120-gqa-4096-c def-d128-8192-c s120-d128-8192-c \
           def-s64-n s120-s64-n def-d128-4096-n s120-d128-4096-n def-d128-16384-c \
           def-d128-8192-n s120-s64-8192-n s120-d128-8192-n def-d128-16384-n s120-d128-16k-n; do
    left=$(( ${PART_BUDGET:-520} - ($(date +%s) - t0) ))
    [ $left -gt 20 ] || { echo "full: $b not run (budget)"; continue; }
    timeout $(( left < 60 ? left : 60 )) $R --gpu-reference --json $OUT/m/verify.jsonl build-bundles/$b | tail -1 | cut -c1-150 \
      || echo "full: $b FAILED or timed out"
  done
  left=$(( ${PART_BUDGET:-520} - ($(date +%s) - t0) ))
  if [ $left -gt 40 ]; then
    san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
    rc=0; timeout $(( left - 10 )) $san --tool memcheck --error-exitcode 3 $R build-bundles/sdef-d128 > /tmp/san.log 2>&1 || rc=$?
    summary=$(grep -E 'ERROR SUMMARY' /tmp/san.log | tail -1 || true)
    echo "memcheck sdef-d128: exit $rc $summary"
    python3 -c 'import json,sys; print(json.dumps({"tool": "memcheck", "bundle": "sdef-d128", "exit": int(sys.argv[1]), "summary": sys.argv[2]}))' \
      "$rc" "$summary" >> $OUT/m/sanitizers.jsonl
  fi
  python3 scripts/results-json.py $OUT/m --what "bench/session17-call.sh PART=1: attncc-split-mask's mask conjunction on main, the tensor-core sweeps (tcgen05 under emulation) and the defaults at full size" > /dev/null 2>&1 || echo results-json failed
  python3 - $OUT/m <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1] + "/verify.jsonl")]
bad = [r for r in rows if not r.get("ok")]
print(f"verify: {len(rows)} lines, {len(rows) - len(bad)} ok")
for r in bad: print("  NOT OK", r.get("status"), r.get("bundle"), r.get("shape"), r.get("error", ""))
PY
  rm -f $OUT/m/gpu.txt
fi
#   2. Decode (issue 16, criterion 3), serial against LAUNCH=pdl (the combine kernel's launch
#      overlapped with the parts' tail), never timed before: bench/perf-pdl.txt's 8x32k, 1x128k
#      and MQA pairs and bench/perf-decode10.txt (fewer parts for MQA and 1x131072), two rounds
#      alternating, then PyTorch's flash and cuDNN on the same shapes; first the wgmma split
#      controls of pdl-wg-split's failure (session 13: O err 0.25 with LAUNCH=pdl). Bundle
#      bench/perf-pdl.txt bench/perf-decode10.txt bench/sweep-pdl.txt.    $OUT/w/ $OUT/ab/
if [ "$PART" = 2 ]; then
  mkdir -p $OUT/w $OUT/ab
  printf 'wg-split-serial\nwg-nosplit\npdl-wg-split\n' | sed 's/$/ | x/' > /tmp/w.txt
  OUT=$OUT/w SWEEP=/tmp/w.txt FULL="" LADDER="" SAN="" CONTROLS="" REFS="" STEP_TIMEOUT=40 \
    timeout 80 bash scripts/gpu-verify.sh 2>&1 | grep -E "NOT OK|verify:|PASSED|FAILED"
  python3 scripts/results-json.py $OUT/w --what "bench/session17-call.sh PART=2: the wgmma split line of bench/sweep-pdl.txt with and without LAUNCH=pdl, and without the split" > /dev/null 2>&1 || echo results-json failed
  rm -f $OUT/w/verify.jsonl $OUT/w/gpu.txt
  B=$(printf 'ds-8x32k dp-8x32k ds-1x128k dp-1x128k ds-mqa dp-mqa ' ; grep -hv '^#' bench/perf-decode10.txt | cut -d'|' -f1 | tr -d ' ' | sed '/^$/d' | tr '\n' ' ')
  B=$(for b in $B; do printf 'build-bundles/%s ' $b; done)
  OUT=$OUT/ab BUNDLES="$B" ROUNDS=2 BENCH=30 timeout ${ABAB_TIMEOUT:-170} bash scripts/gpu-abab.sh 2>&1 | tail -12
  NO_FLEX=1 timeout 60 python3 scripts/anchors-all.py 8,32,8,1,32768,128,bf16 1,32,8,1,131072,128,bf16 \
    16,32,1,1,8192,128,bf16 > $OUT/ab/anchors.jsonl 2>/tmp/anch.err || tail -3 /tmp/anch.err
  python3 -c "
import json
for l in open('$OUT/ab/anchors.jsonl'):
    r=json.loads(l); print(r['shape'], r['causal'], 'flash', r['flash_us'], 'cudnn', r['cudnn_us'])
" || true
  rm -f $OUT/ab/gpu.txt $OUT/ab/x.jsonl
fi
#   3. bench/patches/clip-hull.patch (branch wip-clip-hull: attncc-partition's closed-form hull of
#      a monotone fold bound) over the sweeps whose kernels it changes, with the patched kernels
#      in build-bundles-ch. Make them here first, in a worktree with the patch applied:
#        git worktree add /tmp/ch HEAD && cd /tmp/ch && git am <main>/bench/patches/clip-hull.patch \
#          && cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release && ninja -C build attncc
#        OUT=<main>/build-bundles-ch ATTNCC=/tmp/ch/build/tools/attncc/attncc bash scripts/make-bundles.sh \
#          bench/sweep-tc.txt bench/sweep-tma.txt bench/sweep-wgmma.txt bench/sweep-tma-mma.txt \
#          bench/sweep-wspec.txt bench/sweep-x4.txt bench/sweep-moves.txt bench/sweep-tcgen05-rungs.txt \
#          bench/perf-default.txt bench/perf-sm120.txt bench/perf-pdl.txt bench/perf-decode10.txt \
#          bench/sweep-pdl.txt
#      and carry build-deps and build-bundles-ch. The defaults at full size get FULL_TIMEOUT s each
#      (120), all within PART_BUDGET s (420). (The 27 kernels of perf-pdl, perf-decode10 and
#      sweep-pdl have byte-identical PTX with and without the patch, checked 2026-12-07, so PART=2
#      can run on these bundles.)                                              $OUT/h/
#   4. PART=3 then PART=2 in one call (a fresh machine's start counts against the session's device
#      time: about 170 s on 2026-12-07).
if [ "$PART" = 4 ]; then
  PART=3 PART_BUDGET=${PART_BUDGET:-300} FULL_TIMEOUT=40 bash "$0"
  PART=2 ABAB_TIMEOUT=150 bash "$0" # PART=3 left the patched bundles in build-bundles
  exit 0
fi
if [ "$PART" = 3 ]; then
  [ -d build-bundles-ch ] || { echo "PART=3 needs build-bundles-ch"; exit 1; }
  rm -rf build-bundles && mv build-bundles-ch build-bundles
  mkdir -p $OUT/h
  t0=$(date +%s)
  OUT=$OUT/h SWEEP="bench/sweep-tc.txt bench/sweep-tma.txt bench/sweep-wgmma.txt bench/sweep-tma-mma.txt bench/sweep-wspec.txt bench/sweep-x4.txt bench/sweep-moves.txt bench/sweep-tcgen05-rungs.txt" \
    FULL="" LADDER="" SAN="" CONTROLS="" REFS="" STEP_TIMEOUT=150 \
    timeout 330 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -8
  source scripts/gpu-build-runner.sh > /dev/null 2>&1
  for b in $(for l in bench/perf-default.txt bench/perf-sm120.txt; do names $l; done | grep -v '^alt'); do
    left=$(( ${PART_BUDGET:-420} - ($(date +%s) - t0) ))
    [ $left -gt 20 ] || { echo "full: $b not run (budget)"; continue; }
    t=${FULL_TIMEOUT:-120}; [ $left -lt $t ] && t=$left
    timeout $t $R --gpu-reference --json $OUT/h/verify.jsonl build-bundles/$b > /tmp/full.txt 2>&1 \
      && tail -1 /tmp/full.txt | cut -c1-150 || echo "full: $b FAILED or timed out (rc $?)"
  done
  python3 scripts/results-json.py $OUT/h --what "bench/session17-call.sh PART=3: clip-hull.patch (closed-form hull) over the tensor-core sweeps and the defaults at full size" > /dev/null 2>&1 || echo results-json failed
  rm -f $OUT/h/gpu.txt
fi
