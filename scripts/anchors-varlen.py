#!/usr/bin/env python3
"""PyTorch's varlen FlashAttention (torch.nn.attention.varlen.varlen_attn, or
the aten op under it) on the cumulative lengths an attncc-runner line drew,
so that a varlen bundle's time has a same-lengths anchor in the same call.
usage: anchors-varlen.py RUNNER.jsonl   (JSON lines out: line (of RUNNER.jsonl), bundle, flash_varlen_us)
Each line of RUNNER.jsonl with cu_seqlens_q is timed once: random
[total, H, D] inputs, 5 warm-ups, the median of 30 CUDA-event timings.
First run 2026-12-05; a failure prints the error."""
import inspect, json, statistics, sys
import torch

def flash_varlen(q, k, v, cq, ck, mq, mk, causal):
    try:
        from torch.nn.attention.varlen import varlen_attn
        params = inspect.signature(varlen_attn).parameters
        kw = {}
        if "is_causal" in params:
            kw["is_causal"] = causal
        elif causal:
            kw["window_size"] = (-1, 0)  # causal, bottom-right (FlashAttention's convention)
        if "enable_gqa" in params and q.shape[1] != k.shape[1]:
            kw["enable_gqa"] = True
        return lambda: varlen_attn(q, k, v, cq, ck, mq, mk, **kw), "torch.nn.attention.varlen.varlen_attn"
    except ImportError:
        op = torch.ops.aten._flash_attention_forward
        return lambda: op(q, k, v, cq, ck, mq, mk, 0.0, causal, False), "aten._flash_attention_forward"

for n, line in enumerate(open(sys.argv[1])):
    r = json.loads(line)
    if "cu_seqlens_q" not in r:
        continue
    out = {"line": n, "bundle": r["bundle"], "shape": r.get("shape"), "causal": r.get("causal")}
    try:
        B, H, S, Sk, D = r["shape"].split("x")  # "B x Hq/Hkv x Sq x Sk x D"
        hq, hkv = map(int, H.split("/"))
        D = int(D)
        dt = torch.bfloat16 if r.get("dtype") == "bf16" else torch.float16
        lq = [b - a for a, b in zip(r["cu_seqlens_q"], r["cu_seqlens_q"][1:])]
        lk = [b - a for a, b in zip(r["cu_seqlens_k"], r["cu_seqlens_k"][1:])]
        # A sequence without query rows computes nothing; PyTorch's varlen
        # decode path rejects one (it reshapes Q as one row a sequence), so
        # the anchor drops such sequences: the same work.
        kept = [i for i, n in enumerate(lq) if n > 0]
        dropped = len(lq) - len(kept)
        lq, lk = [lq[i] for i in kept], [lk[i] for i in kept]
        cum = lambda ls: [sum(ls[:i]) for i in range(len(ls) + 1)]
        cq = torch.tensor(cum(lq), dtype=torch.int32, device="cuda")
        ck = torch.tensor(cum(lk), dtype=torch.int32, device="cuda")
        q = torch.randn(sum(lq), hq, D, dtype=dt, device="cuda")
        k = torch.randn(sum(lk), hkv, D, dtype=dt, device="cuda")
        v = torch.randn_like(k)
        f, name = flash_varlen(q, k, v, cq, ck, max(lq), max(lk), bool(r.get("causal")))
        for _ in range(5):
            f()
        ts = []
        for _ in range(30):
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record(); f(); b.record(); b.synchronize()
            ts.append(a.elapsed_time(b) * 1e3)
        out.update({"anchor": name, "flash_varlen_us": statistics.median(ts), "total_q": r["cu_seqlens_q"][-1],
                    "total_k": r["cu_seqlens_k"][-1], "attncc_us": r.get("median_us"), "full_lengths": max(lq) == min(lq) and max(lk) == min(lk) and not dropped,
                    "sequences_without_rows_dropped": dropped})
    except Exception as e:  # noqa: BLE001 - report and go on
        out["error"] = f"{type(e).__name__}: {e}"[:300]
    print(json.dumps(out), flush=True)
