# H200 call (2026-12-04, ninth session), issue 15: why the d128 sm_120 default trails
# FlashAttention-2. (1) SASS of three schedules (ptxas + cuobjdump on build-bundles/ptx/*.ptx,
# made by `attncc compile ... --target sm_90 --ir ptx`); (2) Nsight Compute's per-instruction
# execution counts (SourceCounters, source page, SASS) of the default (gn-d128-small) and of
# PyTorch's flash kernel at [1,16,4096,128] bf16; (3) bench/perf-sm120-geom.txt in alternating
# rounds beside PyTorch's flash and cuDNN. Bundle bench/perf-sm120-geom.txt into build-bundles;
# carry build-deps, build-bundles, build-bench; COMMIT=<hash>.
set -u
export COMMIT=${COMMIT:-wip}
mkdir -p $OUT/ab /tmp/s
source scripts/gpu-build-runner.sh > /dev/null 2>&1
for p in build-bundles/ptx/*.ptx; do
  n=$(basename $p .ptx)
  ptxas -arch=sm_90a $p -o /tmp/s/$n.cubin && cuobjdump -sass /tmp/s/$n.cubin > /tmp/s/$n.sass || echo "sass $n failed"
done
cat > /tmp/s/flash.py <<'PYF'
import torch, torch.nn.functional as F
from torch.nn.attention import sdpa_kernel, SDPBackend
q, k, v = (torch.randn(1, 16, 4096, 128, device="cuda", dtype=torch.bfloat16) for _ in range(3))
with sdpa_kernel([SDPBackend.FLASH_ATTENTION]):
    for _ in range(3):
        F.scaled_dot_product_attention(q, k, v)
torch.cuda.synchronize()
PYF
"$R" --compile-only build-bundles/gn-d128-small > /dev/null 2>&1
timeout 150 ncu --clock-control none --section SourceCounters --page source --print-source sass --csv -k attention \
  --launch-skip 1 --launch-count 1 "$R" --no-check --bench 2 build-bundles/gn-d128-small > /tmp/s/ncu-attncc.csv 2> /tmp/s/ncu-attncc.err || tail -3 /tmp/s/ncu-attncc.err
timeout 150 ncu --clock-control none --section SourceCounters --page source --print-source sass --csv -k regex:flash \
  --launch-skip 1 --launch-count 1 python3 /tmp/s/flash.py > /tmp/s/ncu-flash.csv 2> /tmp/s/ncu-flash.err || tail -3 /tmp/s/ncu-flash.err
wc -l /tmp/s/*.csv /tmp/s/*.sass
tar czf $OUT/ab/sass.tgz -C /tmp/s $(cd /tmp/s && ls *.sass *.csv *.err)
NO_FLEX=1 timeout 100 python3 scripts/anchors-all.py 8,16,16,4096,4096,128,bf16 4,32,8,4096,4096,128,bf16,causal \
  > $OUT/ab/anchors.jsonl 2>/tmp/anch.err || tail -3 /tmp/anch.err
B=$(ls -d build-bundles/g[acde]-* | tr '\n' ' ')
OUT=$OUT/ab BUNDLES="$B" ROUNDS=2 BENCH=30 timeout 200 bash scripts/gpu-abab.sh 2>&1 | tail -10
cut -c1-200 $OUT/ab/anchors.jsonl
rm -f $OUT/ab/gpu.txt
