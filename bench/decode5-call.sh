# H200 call for decode (issue 16; 2026-12-03, fifth session, third call): the combine by attncc-prefetch-parts, wave-sized split counts. Bundle bench/sweep-decode-default.txt,
# bench/perf-decode-default.txt, bench/sweep-pack-tma.txt, bench/sweep-gauto.txt and
# bench/perf-decode5.txt into build-bundles (scripts/make-bundles.sh); carry build-deps,
# build-bundles, build-bench; COMMIT=<hash>.
# 1. the decode defaults against the float64 reference at small sizes and the fp32 GPU reference
#    at the issue's shape, the TMA variant's sweep, gauto's sweep, sanitizers on two lines;
# 2. PyTorch's flash and cuDNN at the decode shapes; 3. one round of bench/perf-decode5.txt;
# 4. Nsight Compute's duration of each kernel (the KV pass and the combine) of two lines.
set -u
export COMMIT=${COMMIT:-wip}
mkdir -p $OUT/v $OUT/ab
OUT=$OUT/v SWEEP="bench/sweep-decode-default.txt bench/sweep-pack-tma.txt bench/sweep-gauto.txt bench/sweep-pack.txt bench/sweep-split-tc.txt bench/sweep-split-scalar.txt" FULL="bench/perf-decode-default.txt" \
  LADDER="" SAN="dd-q4-c pt-decode" CONTROLS="" REFS="" STEP_TIMEOUT=150 timeout 280 bash scripts/gpu-verify.sh 2>&1 \
  | grep -vE "^\s*$" | tail -14
python3 scripts/results-json.py $OUT/v --what "bench/decode5-call.sh: the decode defaults (small and full size), the decode defaults by TMA, every split after attncc-prefetch-parts; sanitizers" > /dev/null 2>&1 || echo results-json failed
rm -f $OUT/v/verify.jsonl
timeout 100 python3 - > $OUT/ab/anchors.jsonl 2>/tmp/anch.err <<'PY' || tail -3 /tmp/anch.err
import sys; sys.path.insert(0, "build-bench"); sys.modules["torch.nn.attention.flex_attention"] = None
import torch, anchors
for B, Hq, Hkv, Sq, Sk, c in [(8, 32, 8, 1, 32768, False), (1, 32, 8, 1, 131072, False), (64, 32, 8, 1, 4096, False),
                              (16, 32, 1, 1, 8192, False), (8, 32, 8, 4, 32768, False), (8, 32, 8, 16, 32768, False)]:
    anchors.measure(B, Hq, Hkv, Sq, Sk, 128, torch.bfloat16, c)
PY
B=$(ls -d build-bundles/q[n-s]-* | tr '\n' ' ')
OUT=$OUT/ab BUNDLES="$B" ROUNDS=1 BENCH=30 timeout 200 bash scripts/gpu-abab.sh 2>&1 | tail -12
source scripts/gpu-build-runner.sh > /dev/null 2>&1; out=$OUT/ab
for b in qn-default qo-default; do
  timeout 60 ncu --clock-control none --launch-skip 2 --launch-count 2 --csv \
    --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,sm__warps_active.avg.pct_of_peak_sustained_active \
    "$R" --no-check --bench 2 build-bundles/$b 2>/dev/null | grep -E '"(gpu__|dram__|launch__|sm__)' | awk -F'","' -v b=$b '{print b, $5, $(NF-2), $NF}' | tee -a $out/ncu.txt
done
cut -c1-150 $OUT/ab/anchors.jsonl
