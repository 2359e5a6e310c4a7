#!/usr/bin/env python3
"""Prints the table of a gpu-tc-perf.sh or gpu-verify.sh output folder: the
checks by status (O and LSE errors of those not ok), then each timed bundle
with TFLOP/s and its ratios to PyTorch's flash and cuDNN backends measured on
the same shape in the same device call (results.json, scripts/results-json.py)."""
import json, os, sys

r = json.load(open(os.path.join(sys.argv[1], "results.json")))
checks = r["checks"]
bad = [c for c in checks if not c.get("ok")]
print(f"checks: {len(checks) - len(bad)} ok, {len(bad)} not ok")
for c in bad:
    print("  NOT OK", c.get("status"), os.path.basename(c.get("bundle", "")), c.get("shape"), c.get("error", ""),
          "o", c.get("max_err"), "<=", c.get("err_bound"), "lse", c.get("lse_err"), "<=", c.get("lse_bound"))
f = lambda x, w=7, p=1: f"{x:{w}.{p}f}" if isinstance(x, (int, float)) else " " * (w - 1) + "-"
print(f"{'bundle':18s} {'shape':22s} c {'us':>8s} {'TFLOP/s':>7s} {'flash':>7s} {'cudnn':>7s} {'x flash':>7s} {'x cudnn':>7s} regs")
for p in r["rows"]:
    print(f"{p['bundle']:18s} {p['shape'] or '':22s} {'c' if p.get('causal') else 'n'} {f(p['attncc_us'], 8)} "
          f"{f(p['attncc_tflops'])} {f(p['flash_us'])} {f(p['cudnn_us'])} {f(p['speedup_vs_flash'], 7, 2)} "
          f"{f(p['speedup_vs_cudnn'], 7, 2)} {list((p.get('registers') or {}).values())}")
