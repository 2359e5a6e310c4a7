# H200 call (2026-12-04, sixth session): the defaults as a user gets them, before the tile-IR
# redesign (issue 13; its reference commit 20310bd) and now, in one call beside PyTorch's flash
# (FlashAttention-2) and cuDNN backends. Bundle bench/perf-default.txt (sm_90a) and
# bench/perf-sm120.txt (sm_120, run as sm_90 code) with both compilers: build-bundles-old/ from
# 20310bd's attncc, build-bundles/ from this commit's; copy ../shared/bench/anchors.py into
# build-bench/. Carry build-deps, build-bundles, build-bundles-old, build-bench; COMMIT=<hash>.
# Each kernel is timed ROUNDS times, old and new alternating (scripts/gpu-abab.sh, no check:
# the sweeps check them).
set -u
export COMMIT=${COMMIT:-wip} COMMIT_OLD=20310bd
mkdir -p $OUT/ab
timeout 200 python3 - > $OUT/ab/anchors.jsonl 2>/tmp/anch.err <<'PY' || tail -3 /tmp/anch.err
import sys; sys.path.insert(0, "build-bench"); sys.modules["torch.nn.attention.flex_attention"] = None
import torch, anchors
for B, Hq, Hkv, S, D, dt, c in [(1, 8, 8, 4096, 64, torch.float16, False), (1, 8, 8, 4096, 64, torch.float16, True),
                                (4, 32, 32, 8192, 64, torch.float16, False),
                                (8, 16, 16, 4096, 128, torch.bfloat16, False), (8, 16, 16, 4096, 128, torch.bfloat16, True),
                                (4, 16, 16, 8192, 128, torch.bfloat16, False), (4, 16, 16, 8192, 128, torch.bfloat16, True),
                                (2, 16, 16, 16384, 128, torch.bfloat16, False), (2, 16, 16, 16384, 128, torch.bfloat16, True),
                                (4, 32, 8, 4096, 128, torch.bfloat16, True)]:
    anchors.measure(B, Hq, Hkv, S, S, D, dt, c)
PY
B=""
for n in $(grep -v '^#' bench/perf-default.txt bench/perf-sm120.txt | cut -d: -f2 | cut -d'|' -f1 | grep -v '^alt' | tr -d ' '); do
  B="$B build-bundles-old/$n build-bundles/$n"
done
OUT=$OUT/ab BUNDLES="$B" ROUNDS=${ROUNDS:-2} BENCH=30 timeout 330 bash scripts/gpu-abab.sh 2>&1 | tail -40
cut -c1-200 $OUT/ab/anchors.jsonl
