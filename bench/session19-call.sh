# Device calls written 2026-12-07 (nineteenth session). No device was lent that session: none of
# this has run. From a checkout of main (the bundle folders are not in git):
#   bash scripts/setup.sh; bash scripts/build.sh; bash scripts/gpu-deps.sh
#   mkdir -p build-bench && cp ../shared/bench/anchors.py build-bench/
#   OUT=$PWD/build-bundles-ch bash scripts/make-bundles.sh bench/sweep-last-combine.txt \
#     bench/perf-decode-last.txt bench/perf-decode-split.txt bench/sweep-tcgen05-early.txt
#   (on 2026-12-07 build-bundles-ch already held the last two lists' bundles, and the first two's
#   were added to it)
#   COMMIT=<hash> PART=A bash bench/session19-call.sh   (carry build-deps, build-bundles-ch, build-bench)
#   COMMIT=<hash> PART=B bash bench/session19-call.sh   (the same, on the warm machine right after)
#   A. bench/session18-call.sh PART=7 (the decode split counts, the decode defaults since 9ec7790 at
#      full size: never checked), then 1 below.
#   B. 2 below, then bench/session18-call.sh PART=9 (the OVERLAP=early sweep, never run).
#   1. REDUCE@kv=g<n>a (attncc-last-combine) for correctness: bench/sweep-last-combine.txt against
#      the float64 CPU reference (O, LSE, poison, repeats bitwise equal, the runner's
#      counters_not_zero), the eight kernels of bench/perf-decode-last.txt at full size against the
#      fp32 GPU reference, memcheck and racecheck of two g<n>a bundles.       $OUT/la/
#   2. Timing: bench/perf-decode-last.txt (each decode default's split count, combine kernel k
#      against the last CTA a), alternating, 3 rounds; PyTorch's flash and cuDNN at the four
#      shapes.                                                                 $OUT/lt/
#   3. = 1 then 2.
set -u
export COMMIT=${COMMIT:-wip}
PART=${PART:-A}
if [ "$PART" = A ]; then
  PART=7 bash bench/session18-call.sh   # moves build-bundles-ch to build-bundles
  PART=1 bash "$0"
  exit 0
fi
if [ "$PART" = B ]; then
  PART=2 bash "$0"
  PART=9 bash bench/session18-call.sh
  exit 0
fi
for d in build-bundles-ch build-bundles-la; do
  if [ -d $d ]; then rm -rf build-bundles && mv $d build-bundles; break; fi
done
if [ "$PART" = 1 ] || [ "$PART" = 3 ]; then
  mkdir -p $OUT/la
  OUT=$OUT/la SWEEP=bench/sweep-last-combine.txt FULL=bench/perf-decode-last.txt LADDER="" \
    SAN="la-dec-pack la-wg-97-c" CONTROLS="" REFS="" STEP_TIMEOUT=60 SAN_TIMEOUT=60 \
    timeout ${LA_TIMEOUT:-220} bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -14
  python3 scripts/results-json.py $OUT/la --what "bench/session19-call.sh PART=1: REDUCE@kv=g<n>a (bench/sweep-last-combine.txt, bench/perf-decode-last.txt at full size, sanitizers)" > /dev/null 2>&1 || echo results-json failed
  python3 - $OUT/la <<'PY'
import json, sys
for l in open(sys.argv[1] + "/verify.jsonl"):
    r = json.loads(l)
    print(r.get("status"), r.get("bundle", "")[-24:], "o", r.get("max_err"), "lse", r.get("lse_err"),
          "counters", r.get("counters_not_zero"), r.get("error", "")[:80])
PY
  rm -f $OUT/la/gpu.txt
fi
if [ "$PART" = 2 ] || [ "$PART" = 3 ]; then
  mkdir -p $OUT/lt
  B=$(grep -v '^#' bench/perf-decode-last.txt | cut -d'|' -f1 | tr -d ' ' | sed '/^$/d' | sed 's|^|build-bundles/|' | tr '\n' ' ')
  OUT=$OUT/lt BUNDLES="$B" ROUNDS=3 BENCH=30 NOTE="REDUCE@kv=g<n>k against g<n>a at the decode shapes" \
    timeout ${LT_TIMEOUT:-200} bash scripts/gpu-abab.sh 2>&1 | tail -12
  NO_FLEX=1 timeout 120 python3 scripts/anchors-all.py 8,32,8,1,32768,128,bf16 1,32,8,1,131072,128,bf16 \
    16,32,1,1,8192,128,bf16 64,32,8,1,4096,128,bf16 > $OUT/lt/anchors.jsonl 2>/tmp/anch.err || tail -3 /tmp/anch.err
  python3 -c "
import json
for l in open('$OUT/lt/anchors.jsonl'):
    r=json.loads(l); print(r['shape'], 'flash', r.get('flash_us'), 'cudnn', r.get('cudnn_us'))
" || true
  rm -f $OUT/lt/gpu.txt
fi
