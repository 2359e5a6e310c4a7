# H200 calls (written 2026-12-05, fourteenth session; PART=1 and PART=2 ran once on an H100 at
# 56a0112, with the tiles in lpt's order: docs/results.md). One PART per device call.
# Bundle first (carry build-deps, build-bundles, build-bench):
#   bash scripts/gpu-deps.sh; mkdir -p build-bench && cp ../shared/bench/anchors.py build-bench/
#   OUT=build-bundles bash scripts/make-bundles.sh bench/sweep-persistent.txt bench/perf-persistent.txt
#   COMMIT=<hash> PART=1 bash bench/session14-call.sh
set -u
export COMMIT=${COMMIT:-wip}
PART=${PART:-1}
#   1. GRID=persistent (attncc-map-to-gpu's tile loop) over bench/sweep-persistent.txt:
#      a. as the runner launches it (at most the resident CTAs: at these sizes about one tile
#         a CTA), memcheck and racecheck of pe-t5-masked-rows (tcgen05 roles, empty folds,
#         emulated) and pw-masked-rows (wgmma, native);                 $OUT/p/results.json
#      b. every bundle again with --ctas 3, so each CTA runs several tiles (the balanced
#         ring, the roles' counters across tiles, set-up once);          $OUT/p/ctas3.jsonl
#      c. a planted fault that must fail b: the load warp's has_next guard removed (the
#         unbalanced ring of GRID=tiles inside a tile loop: a hang or wrong slots).
if [ "$PART" = 1 ]; then
  mkdir -p $OUT/p
  OUT=$OUT/p SWEEP=bench/sweep-persistent.txt FULL="" LADDER="" SAN="pe-t5-masked-rows pw-masked-rows" CONTROLS="" \
    REFS="" STEP_TIMEOUT=60 SAN_TIMEOUT=90 timeout 300 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -12
  python3 scripts/results-json.py $OUT/p --what "bench/session14-call.sh PART=1: bench/sweep-persistent.txt (GRID=persistent; tcgen05 under emulation, wgmma and mma.sync native); memcheck and racecheck of pe-t5-masked-rows and pw-masked-rows" > /dev/null 2>&1 || echo results-json failed
  source scripts/gpu-build-runner.sh > /dev/null 2>&1
  for b in $(grep -v '^#' bench/sweep-persistent.txt | cut -d'|' -f1 | tr -d ' ' | sed '/^$/d'); do
    timeout 60 $R --ctas 3 --json $OUT/p/ctas3.jsonl build-bundles/$b | tail -1 | cut -c1-200 || echo "ctas3: $b FAILED"
  done
  rm -rf /tmp/planted && cp -r build-bundles/pe-t3-1023-c /tmp/planted
  sed -E 's/const bool (has_next[_0-9]*) = \(.*\);/const bool \1 = true;/' build-bundles/pe-t3-1023-c/kernel.cu > /tmp/planted/kernel.cu
  echo "planted: $(grep -c 'has_next[_0-9]* = true' /tmp/planted/kernel.cu) has_next guard(s) removed"
  timeout 60 $R --ctas 3 --json $OUT/p/planted.jsonl /tmp/planted > /tmp/planted.txt 2>&1; rc=$?
  tail -1 /tmp/planted.txt | cut -c1-200
  [ $rc = 0 ] && echo "planted fault NOT detected" || echo "planted fault detected (rc $rc)"
  rm -f $OUT/p/verify.jsonl $OUT/p/gpu.txt
fi
#   2. GRID=persistent against the default launch, natively (bench/perf-persistent.txt),
#      alternating, 3 rounds; flash and cuDNN at the same shapes.           $OUT/t/abab.json
if [ "$PART" = 2 ]; then
  mkdir -p $OUT/t
  B=$(grep -v '^#' bench/perf-persistent.txt | cut -d'|' -f1 | tr -d ' ' | sed '/^$/d' | sed 's|^|build-bundles/|' | tr '\n' ' ')
  OUT=$OUT/t BUNDLES="$B" ROUNDS=3 BENCH=30 timeout 300 bash scripts/gpu-abab.sh 2>&1 | tail -12
  NO_FLEX=1 timeout 90 python3 scripts/anchors-all.py 8,16,16,4096,4096,128,bf16 8,16,16,4096,4096,128,bf16,causal \
    1,8,8,4096,4096,64,f16,causal > $OUT/t/anchors.jsonl 2>/tmp/anch.err || tail -3 /tmp/anch.err
  rm -f $OUT/t/gpu.txt $OUT/t/x.jsonl
fi
#   3. Branch wip-mask-conj (attncc-split-mask writes two or more mask conditions as one
#      select of their conjunction: bitwise the same values, 239 of 391 snapshot kernels' PTX
#      changes, the two-Q-tile N = 128 spills at small sizes gone): the default sweeps with the
#      branch's kernels, before it goes to main. The branch is kept as a patch on main
#      (bench/patches/mask-conj.patch; a later checkout may not have the branch). Bundle on this
#      machine from it:
#        git checkout -b wip-mask-conj && git am bench/patches/mask-conj.patch && ninja -C build && \
#          OUT=build-bundles bash scripts/make-bundles.sh \
#          bench/sweep-tc.txt bench/sweep-tma.txt bench/sweep-wgmma.txt bench/sweep-tma-mma.txt \
#          bench/sweep-tcgen05-rungs.txt bench/perf-default.txt bench/perf-sm120.txt
#      and carry build-deps and build-bundles.                            $OUT/m/results.json
if [ "$PART" = 3 ]; then
  mkdir -p $OUT/m
  OUT=$OUT/m SWEEP="bench/sweep-tc.txt bench/sweep-tma.txt bench/sweep-wgmma.txt bench/sweep-tma-mma.txt bench/sweep-tcgen05-rungs.txt" \
    FULL="bench/perf-default.txt bench/perf-sm120.txt" LADDER="" SAN="" CONTROLS="" REFS="" STEP_TIMEOUT=120 \
    timeout 560 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -12
  python3 scripts/results-json.py $OUT/m --what "bench/session14-call.sh PART=3: branch wip-mask-conj (one select of the mask conditions' conjunction) over the tensor-core sweeps and the defaults at full size" > /dev/null 2>&1 || echo results-json failed
  rm -f $OUT/m/verify.jsonl $OUT/m/gpu.txt
fi
