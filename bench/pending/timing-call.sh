set -u
export COMMIT=${COMMIT:-wip}
mkdir -p $OUT/ab
B=""
for v in A B C D E F G; do for n in $(ls -d build-bundles/$v-* 2>/dev/null); do B="$B $n"; done; done
timeout 150 python3 - > $OUT/ab/anchors.jsonl 2>/tmp/anch.err <<'PY' || tail -3 /tmp/anch.err
import sys; sys.path.insert(0, "build-bench"); sys.modules["torch.nn.attention.flex_attention"] = None
import torch, anchors
for s in ["1,8,8,4096,4096,64,f16", "1,8,8,4096,4096,64,f16,causal", "8,16,16,4096,4096,128,bf16",
          "4,16,16,8192,8192,128,bf16,causal", "4,32,8,4096,4096,128,bf16,causal"]:
    f = s.split(","); B, Hq, Hkv, Sq, Sk, D = map(int, f[:6])
    anchors.measure(B, Hq, Hkv, Sq, Sk, D, torch.float16 if f[6] == "f16" else torch.bfloat16, len(f) > 7)
PY
OUT=$OUT/ab BUNDLES="$B" ROUNDS=2 BENCH=30 timeout 330 bash scripts/gpu-abab.sh 2>&1 | tail -32
python3 -c "
import json
for l in open('$OUT/ab/anchors.jsonl'):
    r=json.loads(l); print(r['shape'], r['causal'], 'flash', r['flash_us'], 'cudnn', r['cudnn_us'])
"
