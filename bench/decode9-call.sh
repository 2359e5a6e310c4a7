# H200 call (2026-12-04, eighth session), issue 16: (1) a planted bug in a paged kernel that must
# fail the check: build-bundles/pg-planted is pg-decode-64 of bench/sweep-paged.txt with every
# block_table read replaced by the sequence's own slot index (pages in order, the table ignored);
# (2) the decode default's key block at the issue's shape, bench/perf-decode9.txt (f1x4 against
# f1x2), in alternating rounds beside PyTorch's flash and cuDNN. Bundle bench/sweep-paged.txt and
# bench/perf-decode9.txt into build-bundles and make pg-planted (bench/decode9-call.sh's header);
# carry build-deps, build-bundles, build-bench; COMMIT=<hash>.
set -u
export COMMIT=${COMMIT:-wip}
mkdir -p $OUT/ab
source scripts/gpu-build-runner.sh > /dev/null 2>&1
timeout 120 "$R" --json $OUT/ab/planted.jsonl build-bundles/pg-planted 2>&1 | tail -2
python3 - "$OUT/ab/planted.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print("planted (must not pass):", [(r.get("status"), r.get("max_err"), r.get("lse_err")) for r in rows])
PY
timeout 100 python3 - > $OUT/ab/anchors.jsonl 2>/tmp/anch.err <<'PY' || tail -3 /tmp/anch.err
import sys; sys.path.insert(0, "build-bench"); sys.modules["torch.nn.attention.flex_attention"] = None
import torch, anchors
for B, Sk in [(8, 32768), (1, 131072)]:
    anchors.measure(B, 32, 8, 1, Sk, 128, torch.bfloat16, False)
PY
B=$(ls -d build-bundles/d9-* | tr '\n' ' ')
OUT=$OUT/ab BUNDLES="$B" ROUNDS=5 BENCH=30 timeout 300 bash scripts/gpu-abab.sh 2>&1 | tail -8
cut -c1-200 $OUT/ab/anchors.jsonl
rm -f $OUT/ab/x.jsonl $OUT/ab/gpu.txt
