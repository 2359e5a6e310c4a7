# H200 call (2026-12-05, twelfth session).
#   1. The six seqused lines and the five PACK=gqa varlen decode lines (vl-pk-*) of bench/sweep-varlen.txt again, after the runner's gaps became
#      finite (K 1, V 1000; the first call's NaN gaps made every vl-su-* O NaN through P = 0 x V);
#      memcheck and racecheck of two of them.                                  $OUT/v/results.json
#   1b. The varlen decode default, the same with PACK=gqa (pv-decode-pk) and the dense decode
#      default, ragged and full lengths, 30 replays each.                   $OUT/v/decode.jsonl
#   2. Issue 15's A/B: the sm_120 defaults (bench/perf-sm120.txt) compiled by main (build-bundles)
#      and by branch wip-int-offsets (offsets into static memrefs as int; build-bundles-new),
#      3 alternating rounds, beside PyTorch's flash and cuDNN on the same shapes.  $OUT/ab/
#   3. The branch's 8 kernels at full size against the fp32 GPU reference.     $OUT/n/results.json
# Bundle bench/sweep-varlen.txt and bench/perf-sm120.txt into build-bundles with main's attncc and
# perf-sm120 into build-bundles-new with the branch's; carry build-deps, build-bundles,
# build-bundles-new; COMMIT=<hash>.
set -u
export COMMIT=${COMMIT:-wip} COMMIT_OLD=${COMMIT_OLD:-wip}
mkdir -p $OUT/v $OUT/ab $OUT/n
grep -E '^vl-(su|pk)-' bench/sweep-varlen.txt > /tmp/su.txt
OUT=$OUT/v SWEEP=/tmp/su.txt FULL="" LADDER="" SAN="vl-su-wg-d128-c vl-su-s120-d64-c" CONTROLS="" REFS="" \
  STEP_TIMEOUT=100 SAN_TIMEOUT=40 timeout 150 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -14
python3 scripts/results-json.py $OUT/v --what "bench/session12-call.sh: the seqused lines of bench/sweep-varlen.txt with finite gaps; memcheck and racecheck of vl-su-wg-d128-c and vl-su-s120-d64-c" > /dev/null 2>&1 || echo results-json failed
rm -f $OUT/v/verify.jsonl $OUT/v/gpu.txt
source scripts/gpu-build-runner.sh > /dev/null 2>&1
for n in pv-decode pv-decode-pk pv-dense-decode; do
  for f in "" --full-lengths; do
    timeout 40 $R $f --no-check --bench 30 --json $OUT/v/decode.jsonl build-bundles/$n > /dev/null || echo "$n $f failed"
  done
done
python3 -c "
import json
for l in open('$OUT/v/decode.jsonl'):
    r=json.loads(l); print(r['bundle'].split('/')[-1], r.get('median_us'), r.get('knobs'))
"
NO_FLEX=1 timeout 100 python3 scripts/anchors-all.py 1,8,8,4096,4096,64,f16 1,8,8,4096,4096,64,f16,causal \
  4,32,32,8192,8192,64,f16 8,16,16,4096,4096,128,bf16 4,16,16,8192,8192,128,bf16 2,16,16,16384,16384,128,bf16 \
  4,16,16,8192,8192,128,bf16,causal 4,32,8,4096,4096,128,bf16,causal > $OUT/ab/anchors.jsonl 2>/tmp/anch.err \
  || tail -5 /tmp/anch.err
B=""
for n in $(ls build-bundles-new); do B="$B build-bundles/$n build-bundles-new/$n"; done
OUT=$OUT/ab BUNDLES="$B" ROUNDS=3 BENCH=30 timeout 190 bash scripts/gpu-abab.sh 2>&1 | tail -20
python3 -c "
import json
for l in open('$OUT/ab/anchors.jsonl'):
    r=json.loads(l); print(r['shape'], r['causal'], 'flash', r['flash_us'], 'cudnn', r['cudnn_us'])
" || true
rm -f $OUT/ab/gpu.txt $OUT/ab/x.jsonl
ls build-bundles-new | sed 's/$/ | x/' > /tmp/new.txt
rm -rf build-bundles-main && mv build-bundles build-bundles-main && mv build-bundles-new build-bundles
OUT=$OUT/n SWEEP="" FULL=/tmp/new.txt LADDER="" SAN="" CONTROLS="" REFS="" STEP_TIMEOUT=100 \
  timeout 90 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | grep -v '^{' | tail -12
python3 scripts/results-json.py $OUT/n --what "bench/session12-call.sh: branch wip-int-offsets's sm_120 defaults at full size against the fp32 GPU reference" > /dev/null 2>&1 || echo results-json failed
rm -f $OUT/n/verify.jsonl $OUT/n/gpu.txt
