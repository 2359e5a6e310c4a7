# One H200 call for issue 15 (run from the repository root by the device tool, carrying
# build-deps, build-bundles and build-bench; COMMIT=<hash>): the d128 sm_120 defaults of
# bench/perf-sm120.txt (the rows RESCALE=lazy8 changed) at full size against the fp32 GPU reference (scripts/gpu-verify.sh),
# then PyTorch's flash and cuDNN on the same shapes, then 2 alternating rounds of the
# defaults and the variants of bench/perf-sm120-variants.txt (scripts/gpu-abab.sh).
# Writes $OUT/v/results.json, $OUT/ab/anchors.jsonl and $OUT/ab/abab.json.
set -u
export COMMIT=${COMMIT:-wip}
mkdir -p $OUT/v $OUT/ab
grep -E "^s120-(d128|gqa)" bench/perf-sm120.txt > /tmp/d128.txt
OUT=$OUT/v SWEEP="" FULL="/tmp/d128.txt" LADDER="" SAN="" CONTROLS="" REFS="" STEP_TIMEOUT=120 \
  timeout 240 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -6
python3 scripts/results-json.py $OUT/v --what "bench/sm120-call.sh: the d128 sm_120 defaults of bench/perf-sm120.txt (RESCALE=lazy8) at full size (scripts/gpu-verify.sh FULL)" > /dev/null 2>&1 || echo results-json failed
rm -f $OUT/v/verify.jsonl
timeout 170 python3 - > $OUT/ab/anchors.jsonl 2>/tmp/anch.err <<'PY' || tail -3 /tmp/anch.err
import sys; sys.path.insert(0, "build-bench"); sys.modules["torch.nn.attention.flex_attention"] = None
import torch, anchors
for s in ["1,8,8,4096,4096,64,f16", "1,8,8,4096,4096,64,f16,causal", "4,32,32,8192,8192,64,f16",
          "8,16,16,4096,4096,128,bf16", "4,16,16,8192,8192,128,bf16", "2,16,16,16384,16384,128,bf16",
          "4,16,16,8192,8192,128,bf16,causal", "4,32,8,4096,4096,128,bf16,causal"]:
    f = s.split(","); B, Hq, Hkv, Sq, Sk, D = map(int, f[:6])
    anchors.measure(B, Hq, Hkv, Sq, Sk, D, torch.float16 if f[6] == "f16" else torch.bfloat16, len(f) > 7)
PY
B=$(ls -d build-bundles/s120-* build-bundles/v[qrtgw]-* | tr '\n' ' ')
OUT=$OUT/ab BUNDLES="$B" ROUNDS=2 BENCH=30 timeout 260 bash scripts/gpu-abab.sh 2>timeout 200 bash scripts/gpu-abab.sh 2>&1 | tail -161 | tail -24
python3 -c "
import json
for l in open('$OUT/ab/anchors.jsonl'):
    r=json.loads(l); print(r['shape'], r['causal'], 'flash', r['flash_us'], 'cudnn', r['cudnn_us'])
"
