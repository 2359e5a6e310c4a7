#!/usr/bin/env python3
"""Prints the issue-4 table from a gpu-tc-perf.sh output folder: sweep status,
then each timed bundle with TFLOP/s and its ratio to PyTorch's flash backend
measured on the same shape in the same device call."""
import json, os, sys

d = sys.argv[1]
load = lambda f: [json.loads(l) for l in open(os.path.join(d, f))] if os.path.exists(os.path.join(d, f)) else []
sweep, perf, anchors = load("sweep.jsonl"), load("perf.jsonl"), load("anchors.jsonl")
bad = [r for r in sweep if not r.get("ok")]
print(f"sweep: {len(sweep) - len(bad)} ok, {len(bad)} not ok")
for r in bad:
    print("  NOT OK", os.path.basename(r.get("bundle", "")), r.get("shape"), r.get("error", ""), r.get("max_err"), r.get("err_bound"))
for r in sweep:
    if r.get("ok") and r.get("checked") and r["max_err"] > 0.5 * r["err_bound"]:
        print(f"  close: {os.path.basename(r['bundle'])} {r['shape']} {r['max_err']:.2e} <= {r['err_bound']:.2e}")
def anchor(p):
    for a in anchors:
        if a.get("shape") == p["shape"] and a.get("causal") == p.get("causal") and \
                {"float16": "f16", "bfloat16": "bf16"}.get(a.get("dtype"), a.get("dtype")) == p.get("dtype"):
            return a
    return {}
print(f"{'bundle':16s} {'shape':22s} {'c':1s} {'us':>8s} {'TFLOP/s':>8s} {'flash':>7s} {'cudnn':>7s} {'flex':>7s} {'x flash':>7s} regs")
for p in perf:
    a = anchor(p)
    us = p.get("median_us") or 0
    f = a.get("flash_us")
    print(f"{os.path.basename(p['bundle']):16s} {p['shape']:22s} {'c' if p.get('causal') else 'n'} {us:8.1f} {p.get('tflops', 0):8.1f} "
          f"{f or 0:7.1f} {a.get('cudnn_us') or 0:7.1f} {a.get('flex_us') or 0:7.1f} {(f / us if f and us else 0):7.2f} {list(p.get('registers', {}).values())}")
