# Device calls written 2026-12-07 (twentieth session). From a checkout of main (the bundle folders
# are not in git):
#   bash scripts/setup.sh; bash scripts/build.sh; bash scripts/gpu-deps.sh
#   S: OUT=$PWD/build-bundles-san bash scripts/make-bundles.sh <the sdef-d128 line of
#      bench/san-tcgen05.txt and the rdef-97-c line of bench/sweep-tcgen05-rungs.txt>, plus
#      ea-cr-q2-k14 of bench/sweep-tcgen05-early.txt;
#      COMMIT=<hash> PART=S bash bench/session20-call.sh   (carry build-deps, build-bundles-san)
#   S. Issue 14, criterion 5: compute-sanitizer memcheck of the sm_100a default under emulation
#      (sdef-d128, [1,2,200,128] bf16 causal; rdef-97-c) and of the OVERLAP=early kernel
#      ea-cr-q2-k14, whose memcheck did not finish in 70 s on 2026-12-07; racecheck of rdef-97-c.
#      The four run at once (each is slow under emulation, none is timed), each up to
#      SAN_TIMEOUT s (400).                                                     $OUT/s/
#   W: OUT=$PWD/build-bundles-wv bash scripts/make-bundles.sh bench/perf-decode-wave.txt bench/sweep-gauto.txt;
#      COMMIT=<hash> PART=W bash bench/session20-call.sh   (carry build-deps, build-bundles-wv,
#      build-bench)
#   W. Issue 16, criteria 3 and 6: bench/perf-decode-wave.txt (each decode shape's split count
#      against the CTAs that fit an SM at once), alternating, 3 rounds; every kernel of the list
#      checked at full size against the fp32 GPU reference; PyTorch's flash and cuDNN at the four
#      shapes; the copy bandwidth (scripts/copy-bandwidth.py).  $OUT/w/
#      Since 2026-12-08 also: the two gauto lines of the list (the count from the device's
#      resident CTAs, a kernel argument) in the same rounds, their resident_ctas and grids, and
#      bench/sweep-gauto.txt checked with gpu-verify.sh (memcheck of ga-decode).  $OUT/wg/
#   R: OUT=$PWD/build-bundles-rs bash scripts/make-bundles.sh bench/sweep-rowsum.txt bench/perf-rowsum.txt;
#      COMMIT=<hash> PART=R bash bench/session20-call.sh   (carry build-deps, build-bundles-rs,
#      build-bench)
#   R. Issue 15: ROWSUM=end (attncc-defer-rowsum), never run on a GPU before. bench/sweep-rowsum.txt
#      against the float64 reference (O, LSE, poison, bitwise repeats), the re-* kernels of
#      bench/perf-rowsum.txt at full size against the fp32 GPU reference, memcheck and racecheck of
#      rs-tc-ring-c; then bench/perf-rowsum.txt (ROWSUM=block against end in the eight sm_120
#      defaults and three sm_90a ones) alternating, 2 rounds, and PyTorch's flash and cuDNN at
#      the shapes.                                                       $OUT/r/
set -u
export COMMIT=${COMMIT:-wip}
PART=${PART:-S}
if [ "$PART" = S ]; then
  mkdir -p $OUT/s
  rm -rf build-bundles && mv build-bundles-san build-bundles
  source scripts/gpu-build-runner.sh > /dev/null 2>&1
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/s/gpu.txt
  san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  one() { # tool bundle
    local rc=0 log=/tmp/san-$1-$2.log
    timeout "${SAN_TIMEOUT:-400}" "$san" --tool "$1" --error-exitcode 3 "$R" "build-bundles/$2" > $log 2>&1 || rc=$?
    local summary; summary=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $log | tail -1 || true)
    echo "$1 $2: exit $rc  $summary  ($(grep -cE 'passed|PASS' $log) pass lines)"
    python3 -c 'import json,sys; print(json.dumps({"tool": sys.argv[1], "bundle": sys.argv[2], "exit": int(sys.argv[3]), "summary": sys.argv[4]}))' \
      "$1" "$2" "$rc" "$summary" > $OUT/s/san-$1-$2.jsonl
  }
  t0=$(date +%s)
  one memcheck sdef-d128 & one memcheck rdef-97-c & one memcheck ea-cr-q2-k14 & one racecheck rdef-97-c &
  wait
  echo "sanitizers: $(( $(date +%s) - t0 )) s"
  cat $OUT/s/san-*.jsonl > $OUT/s/sanitizers.jsonl && rm -f $OUT/s/san-*.jsonl
  python3 scripts/results-json.py $OUT/s --what "bench/session20-call.sh PART=S: memcheck of the sm_100a default under emulation (sdef-d128, rdef-97-c) and of ea-cr-q2-k14 (OVERLAP=early); racecheck of rdef-97-c" > /dev/null 2>&1 || echo results-json failed
  rm -f $OUT/s/gpu.txt
fi
if [ "$PART" = W ]; then
  mkdir -p $OUT/w
  rm -rf build-bundles && mv build-bundles-wv build-bundles
  B=$(grep -v '^#' bench/perf-decode-wave.txt | cut -d'|' -f1 | tr -d ' ' | sed '/^$/d' | sed 's|^|build-bundles/|' | tr '\n' ' ')
  OUT=$OUT/w BUNDLES="$B" ROUNDS=3 BENCH=30 NOTE="decode split counts against one wave of CTAs" \
    timeout 240 bash scripts/gpu-abab.sh 2>&1 | tail -18
  source scripts/gpu-build-runner.sh > /dev/null 2>&1
  for b in $B; do
    timeout 40 $R --gpu-reference --json $OUT/w/verify.jsonl $b | tail -1 | cut -c1-120 || echo "full: $b FAILED or timed out"
  done
  python3 -c "
import json
for l in open('$OUT/w/verify.jsonl'):
    r=json.loads(l)
    if 'resident_ctas' in r: print(r.get('bundle'), r.get('status'), 'resident_ctas', r['resident_ctas'], 'grids', r.get('grid_ctas'))
" || true
  # gauto's count from the device (2026-12-08): bench/sweep-gauto.txt, its bundles in the same folder.
  OUT=$OUT/wg SWEEP=bench/sweep-gauto.txt FULL="" LADDER="" SAN="ga-decode" CONTROLS="" REFS="" \
    STEP_TIMEOUT=60 SAN_TIMEOUT=40 timeout 120 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -6
  python3 -c "
import json
for l in open('$OUT/wg/verify.jsonl'):
    r=json.loads(l); print(r.get('bundle'), r.get('status'), 'resident_ctas', r.get('resident_ctas'), 'grids', r.get('grid_ctas'))
" || true
  python3 scripts/results-json.py $OUT/wg --what "bench/session20-call.sh PART=W: bench/sweep-gauto.txt with gauto's count from the device's resident CTAs" > /dev/null 2>&1 || echo results-json failed
  rm -f $OUT/wg/gpu.txt
  NO_FLEX=1 timeout 120 python3 scripts/anchors-all.py 8,32,8,1,32768,128,bf16 1,32,8,1,131072,128,bf16 \
    16,32,1,1,8192,128,bf16 64,32,8,1,4096,128,bf16 > $OUT/w/anchors.jsonl 2>/tmp/anch.err || tail -3 /tmp/anch.err
  python3 -c "
import json
for l in open('$OUT/w/anchors.jsonl'):
    r=json.loads(l); print(r['shape'], 'flash', r.get('flash_us'), 'cudnn', r.get('cudnn_us'))
" || true
  timeout 60 python3 scripts/copy-bandwidth.py > $OUT/w/copy.json && cat $OUT/w/copy.json
  python3 scripts/results-json.py $OUT/w --what "bench/session20-call.sh PART=W: bench/perf-decode-wave.txt at full size (checked), 3 alternating rounds, flash and cuDNN" > /dev/null 2>&1 || echo results-json failed
  rm -f $OUT/w/gpu.txt
fi
if [ "$PART" = R ]; then
  mkdir -p $OUT/r $OUT/rt
  rm -rf build-bundles && mv build-bundles-rs build-bundles
  grep '^re-' bench/perf-rowsum.txt > /tmp/rowsum-full.txt
  OUT=$OUT/r SWEEP=bench/sweep-rowsum.txt FULL=${RS_FULL-/tmp/rowsum-full.txt} LADDER="" SAN="${RS_SAN-rs-tc-ring-c}" CONTROLS="" REFS="" \
    STEP_TIMEOUT=150 SAN_TIMEOUT=40 timeout ${RV_TIMEOUT:-190} bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -12
  python3 scripts/results-json.py $OUT/r --what "bench/session20-call.sh PART=R: ROWSUM=end, bench/sweep-rowsum.txt, the re-* kernels of bench/perf-rowsum.txt at full size, sanitizers of rs-tc-ring-c" > /dev/null 2>&1 || echo results-json failed
  rm -f $OUT/r/gpu.txt
  B=$(grep -v '^#' bench/perf-rowsum.txt | cut -d'|' -f1 | tr -d ' ' | sed '/^$/d' | grep -E "${RT_FILTER:-.}" | sed 's|^|build-bundles/|' | tr '\n' ' ')
  OUT=$OUT/rt BUNDLES="$B" ROUNDS=2 BENCH=20 NOTE="ROWSUM=block against ROWSUM=end" \
    timeout ${RT_TIMEOUT:-150} bash scripts/gpu-abab.sh 2>&1 | tail -24
  # shellcheck disable=SC2086
  NO_FLEX=1 timeout ${RA_TIMEOUT:-90} python3 scripts/anchors-all.py ${RA_SHAPES:-1,8,8,4096,4096,64,f16 1,8,8,4096,4096,64,f16,causal \
    4,32,32,8192,8192,64,f16 8,16,16,4096,4096,128,bf16 4,16,16,8192,8192,128,bf16 2,16,16,16384,16384,128,bf16 \
    4,16,16,8192,8192,128,bf16,causal 4,32,8,4096,4096,128,bf16,causal} > $OUT/rt/anchors.jsonl 2>/tmp/anch.err || tail -3 /tmp/anch.err
  python3 -c "
import json
for l in open('$OUT/rt/anchors.jsonl'):
    r=json.loads(l); print(r['shape'], r['causal'], 'flash', r.get('flash_us'), 'cudnn', r.get('cudnn_us'))
" || true
  rm -f $OUT/rt/gpu.txt
fi
