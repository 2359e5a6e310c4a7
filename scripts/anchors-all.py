#!/usr/bin/env python3
"""Times PyTorch's attention backends (build-bench/anchors.py's measure) on
several shapes in one process, so torch is imported once.
usage: anchors-all.py "B,Hq,Hkv,Sq,Sk,D,dtype[,causal]" ...   (JSON lines out)
NO_FLEX=1 skips FlexAttention (its torch.compile takes minutes of a device call)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "build-bench"))
if os.environ.get("NO_FLEX") == "1":
    sys.modules["torch.nn.attention.flex_attention"] = None
import torch
import anchors

for spec in sys.argv[1:]:
    f = spec.split(",")
    B, Hq, Hkv, Sq, Sk, D = map(int, f[:6])
    dt = torch.float16 if f[6] == "f16" else torch.bfloat16
    anchors.measure(B, Hq, Hkv, Sq, Sk, D, dt, len(f) > 7 and f[7] == "causal")
