#!/usr/bin/env bash
# Issue 14, criterion 7: the sm_100a kernels on a B200. On a machine whose GPU
# is compute capability 10.0, from the repository root, in one call:
#   1. the correctness sweeps with the real tcgen05 instructions (the
#      lists below without --emulate: the atoms, each rung and the default
#      over the TESTING.md cases, two Q tiles, the mma warp, the roles,
#      the correction warps, early P*V, the m64 atom) and the FA4
#      paper shapes at full size against the fp32 GPU reference
#      (scripts/gpu-verify.sh);
#   2. the FA4 paper shapes with the default (bench/perf-b200.txt) and the
#      rungs at 8k (bench/perf-b200-rungs.txt) timed beside PyTorch's
#      backends (scripts/gpu-tc-perf.sh) and, if the flash_attn.cute package
#      is installed, FlashAttention-4 (written to $out/fa4.jsonl).
# Without a B200 it says so and exits 77 (nothing here has run on one yet).
# The bundles are made here when attncc is built (MLIR); on a GPU host
# without MLIR carry build-bundles made with
#   NO_EMULATE=1 bash scripts/make-bundles.sh <the sweeps below> bench/perf-b200.txt bench/perf-b200-rungs.txt
set -euo pipefail
sweeps="bench/sweep-tcgen05.txt bench/sweep-tcgen05-rungs.txt bench/sweep-tcgen05-q2.txt bench/sweep-tcgen05-mma.txt \
  bench/sweep-tcgen05-ws.txt bench/sweep-tcgen05-corr.txt bench/sweep-tcgen05-early.txt bench/sweep-tcgen05-m64.txt"
cd "$(dirname "$0")/.."
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 || true)
if [ "$cc" != "10.0" ]; then
  echo "b200-bench: needs a B200 (compute capability 10.0: sm_100a kernels run on nothing else); this machine: ${cc:-no GPU}"
  exit 77
fi
out=${OUT:-$PWD/gpu-out}
if [ -x build/tools/attncc/attncc ]; then
  NO_EMULATE=1 bash scripts/make-bundles.sh $sweeps bench/perf-b200.txt bench/perf-b200-rungs.txt > /dev/null
fi
OUT=$out/verify SWEEP="$sweeps" FULL=bench/perf-b200.txt LADDER= SAN="t5-97-c q2-ws6-97-c" CONTROLS= REFS= \
  bash scripts/gpu-verify.sh || echo "b200-bench: the sweep failed (see $out/verify)"
OUT=$out/perf PERF="bench/perf-b200.txt bench/perf-b200-rungs.txt" LADDER= \
  ANCHORS_SET="8,16,16,4096,4096,128,bf16 8,16,16,4096,4096,128,bf16,causal 4,16,16,8192,8192,128,bf16 4,16,16,8192,8192,128,bf16,causal 2,16,16,16384,16384,128,bf16 2,16,16,16384,16384,128,bf16,causal" \
  bash scripts/gpu-tc-perf.sh || echo "b200-bench: timing failed (see $out/perf)"
python3 - "$out" <<'PY'
import json, sys
try:
    import torch
    from flash_attn.cute.interface import flash_attn_func  # FlashAttention-4 (CuTe DSL)
except Exception as e:
    print("b200-bench: FlashAttention-4 not installed here (%s): no FA4 column" % e)
    sys.exit(0)
shapes = [(8, 16, 4096), (4, 16, 8192), (2, 16, 16384)]
with open(sys.argv[1] + "/fa4.jsonl", "w") as f:
    for b, h, s in shapes:
        for causal in (False, True):
            q, k, v = (torch.randn(b, s, h, 128, device="cuda", dtype=torch.bfloat16) for _ in range(3))
            fn = lambda: flash_attn_func(q, k, v, causal=causal)
            for _ in range(5): fn()
            torch.cuda.synchronize()
            ts = []
            for _ in range(20):
                a, z = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                a.record(); fn(); z.record(); torch.cuda.synchronize(); ts.append(a.elapsed_time(z) * 1e3)
            ts.sort()
            f.write(json.dumps({"shape": [b, h, s, s, 128], "causal": causal, "fa4_us": ts[len(ts) // 2]}) + "\n")
PY
