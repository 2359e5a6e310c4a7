# H200 call (2026-12-05, thirteenth session).
#   1. bench/pdl-call.sh: LAUNCH=pdl over bench/sweep-pdl.txt and timed serial against pdl
#      (bench/perf-pdl.txt) beside flash and cuDNN.                      $OUT/v, $OUT/ab
#   2. The two gauto lines of bench/sweep-varlen.txt (vl-gauto-*), the symbolic bundles at
#      the sizes gpu-verify.sh picks.                                     $OUT/g/results.json
# Bundle bench/perf-pdl.txt, bench/sweep-pdl.txt and the vl-gauto lines into build-bundles;
# carry build-deps, build-bundles, build-bench; COMMIT=<hash>.
set -u
export COMMIT=${COMMIT:-wip}
PART=${PART:-12}   # 12: steps 1 and 2; 3: step 3 (one device call each)
if [ "$PART" = 12 ]; then
bash bench/pdl-call.sh
mkdir -p $OUT/g
grep -E '^vl-gauto' bench/sweep-varlen.txt > /tmp/vlg.txt
OUT=$OUT/g SWEEP=/tmp/vlg.txt FULL="" LADDER="" SAN="" CONTROLS="" REFS="" STEP_TIMEOUT=60 \
  timeout 90 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -6
python3 scripts/results-json.py $OUT/g --what "bench/session13-call.sh: the vl-gauto lines of bench/sweep-varlen.txt (gauto over varlen)" > /dev/null 2>&1 || echo results-json failed
rm -f $OUT/g/verify.jsonl $OUT/g/gpu.txt
fi
#   3. WSPEC=.../corr4 (attncc-corr-role) under emulation: bench/sweep-tcgen05-corr.txt,
#      memcheck and racecheck of cr-97-c and cr-q2-97-c, and two planted faults that must fail
#      the check: the mma warp's wait on o_ready deleted (P*V may accumulate into O while the
#      correction warps rescale it), and the correction warps' wait on corr_full deleted (they
#      may read last block's factors).                                    $OUT/c/results.json
# (Bundle bench/sweep-tcgen05-corr.txt into build-bundles too.)
if [ "$PART" = 3 ]; then
  mkdir -p $OUT/c
  OUT=$OUT/c SWEEP=bench/sweep-tcgen05-corr.txt FULL="" LADDER="" SAN="cr-97-c cr-q2-97-c" CONTROLS="" REFS="" \
    STEP_TIMEOUT=60 SAN_TIMEOUT=60 timeout 330 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -12
  python3 scripts/results-json.py $OUT/c --what "bench/session13-call.sh: bench/sweep-tcgen05-corr.txt (WSPEC=.../corr4) under emulation; memcheck and racecheck of cr-97-c and cr-q2-97-c" > /dev/null 2>&1 || echo results-json failed
  source scripts/gpu-build-runner.sh > /dev/null 2>&1
  for fault in "o_ready_2, parity" "corr_full_1, parity); // the row factors"; do
    rm -rf /tmp/planted && cp -r build-bundles/cr-97-c /tmp/planted
    grep -vF "$fault" build-bundles/cr-97-c/kernel.cu > /tmp/planted/kernel.cu
    echo "planted: deleted $(( $(wc -l < build-bundles/cr-97-c/kernel.cu) - $(wc -l < /tmp/planted/kernel.cu) )) line(s) with '$fault'"
    timeout 60 $R --json $OUT/c/planted.jsonl /tmp/planted > /tmp/planted.txt 2>&1; rc=$?
    tail -2 /tmp/planted.txt
    [ $rc = 0 ] && echo "planted fault NOT detected" || echo "planted fault detected (rc $rc)"
  done
  rm -f $OUT/c/verify.jsonl $OUT/c/gpu.txt
fi
#   4. (PART=4) Follow-ups of the first two calls:
#      a. pdl-wg-split failed (O err 0.25): the same line without LAUNCH=pdl and without the
#         split (wg-split-serial, wg-nosplit; bench/sweep-pdl.txt's wgmma line), to see whether
#         PDL is the cause.                                                 $OUT/w/results.json
#      b. the serial-against-pdl timing of bench/perf-pdl.txt (the first call's 75 s ran out
#         before it printed) and bench/perf-decode10.txt (fewer parts), 2 rounds, 280 s.
#                                                                           $OUT/ab/abab.json
#      c. the correction warps slowed down (a 50 x 1 us sleep before each rescale): with the mma
#         warp's wait on o_ready it must still pass; without it, it must fail.
if [ "$PART" = 4 ]; then
  mkdir -p $OUT/w $OUT/ab
  printf 'wg-split-serial\nwg-nosplit\npdl-wg-split\n' | sed 's/$/ | x/' > /tmp/w.txt
  OUT=$OUT/w SWEEP=/tmp/w.txt FULL="" LADDER="" SAN="" CONTROLS="" REFS="" STEP_TIMEOUT=60 \
    timeout 100 bash scripts/gpu-verify.sh 2>&1 | grep -E "NOT OK|verify:|PASSED|FAILED"
  python3 scripts/results-json.py $OUT/w --what "bench/session13-call.sh PART=4: the wgmma split line of bench/sweep-pdl.txt with and without LAUNCH=pdl, and without the split" > /dev/null 2>&1 || echo results-json failed
  rm -f $OUT/w/verify.jsonl $OUT/w/gpu.txt
  source scripts/gpu-build-runner.sh > /dev/null 2>&1
  for wait in keep delete; do
    rm -rf /tmp/slow && cp -r build-bundles/cr-97-c /tmp/slow
    sed -e 's|^\(\s*const float factor = corr_scale\[corr_row\];\)|\1 for (int s = 0; s < 50; ++s) __nanosleep(1000);|' \
      build-bundles/cr-97-c/kernel.cu > /tmp/slow/kernel.cu
    [ $wait = delete ] && sed -i '/o_ready_2, parity/d' /tmp/slow/kernel.cu
    echo "slow correction warps, o_ready wait: $wait; $(grep -c __nanosleep /tmp/slow/kernel.cu) sleep(s), $(grep -c 'o_ready_2, parity' /tmp/slow/kernel.cu) wait(s)"
    timeout 60 $R --json $OUT/w/slow.jsonl /tmp/slow > /tmp/slow.txt 2>&1; echo "rc $?"; tail -1 /tmp/slow.txt
  done
  B=$(grep -hv '^#' bench/perf-pdl.txt bench/perf-decode10.txt | cut -d'|' -f1 | tr -d ' ' | sed '/^$/d' | sed 's|^|build-bundles/|' | tr '\n' ' ')
  OUT=$OUT/ab BUNDLES="$B" ROUNDS=2 BENCH=30 timeout 280 bash scripts/gpu-abab.sh 2>&1 | tail -18
  NO_FLEX=1 timeout 70 python3 scripts/anchors-all.py 8,32,8,1,32768,128,bf16 1,32,8,1,131072,128,bf16 64,32,8,1,4096,128,bf16 \
    16,32,1,1,8192,128,bf16 8,32,8,16,32768,128,bf16 > $OUT/ab/anchors.jsonl 2>/tmp/anch.err || tail -3 /tmp/anch.err
  python3 -c "
import json
for l in open('$OUT/ab/anchors.jsonl'):
    r=json.loads(l); print(r['shape'], r['causal'], 'flash', r['flash_us'], 'cudnn', r['cudnn_us'])
" || true
  rm -f $OUT/ab/gpu.txt $OUT/ab/x.jsonl
fi
#   5. (PART=5, not run this session: the H200 was not lent after OVERLAP=early was built)
#      OVERLAP=early under emulation: bench/sweep-tcgen05-early.txt, memcheck and racecheck of
#      ea-ws6-1023-c (the mma warp, p_ready) and ea-cr-q2-k14 (two Q tiles, corr4).  $OUT/e/
#      Bundle bench/sweep-tcgen05-early.txt into build-bundles first.
if [ "$PART" = 5 ]; then
  mkdir -p $OUT/e
  OUT=$OUT/e SWEEP=bench/sweep-tcgen05-early.txt FULL="" LADDER="" SAN="ea-ws6-1023-c ea-cr-q2-k14" CONTROLS="" \
    REFS="" STEP_TIMEOUT=60 SAN_TIMEOUT=90 timeout 500 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -12
  python3 scripts/results-json.py $OUT/e --what "bench/session13-call.sh PART=5: bench/sweep-tcgen05-early.txt (OVERLAP=early) under emulation; memcheck and racecheck of ea-ws6-1023-c and ea-cr-q2-k14" > /dev/null 2>&1 || echo results-json failed
  rm -f $OUT/e/verify.jsonl $OUT/e/gpu.txt
fi
