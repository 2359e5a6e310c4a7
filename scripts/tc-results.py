#!/usr/bin/env python3
"""Turns a gpu-tc-perf.sh output folder into bench/results JSON: one row per
timed bundle with the fields issue 4 asks for (shape, dtype, causal, knobs,
target, gpu, date, commit, attncc_us, flash_us, cudnn_us, flex_us,
speedup_vs_flash = flash_us / attncc_us from the same device call, max_err,
err_bound of the same bundle's check), plus the sweep and the anchors.

usage: tc-results.py OUT_DIR COMMIT DATE RESULT.json"""
import json, os, sys

d, commit, date, dest = sys.argv[1:5]
load = lambda f: [json.loads(l) for l in open(os.path.join(d, f))] if os.path.exists(os.path.join(d, f)) else []
sweep, perf, anchors = load("sweep.jsonl"), load("perf.jsonl"), load("anchors.jsonl")
# Bundles that hung (PERBUNDLE time limit, hangs.txt) are failed checks too.
hangs = os.path.join(d, "hangs.txt")
if os.path.exists(hangs):
    for line in open(hangs):
        if line.strip():
            sweep.append({"bundle": "build-bundles/" + line.split(":")[0].strip(), "ok": False,
                          "checked": False, "note": line.strip()})
gpu = open(os.path.join(d, "gpu.txt")).read().strip() if os.path.exists(os.path.join(d, "gpu.txt")) else "?"
rows = []
for p in perf:
    dt = {"float16": "f16", "bfloat16": "bf16"}
    a = next((x for x in anchors if x.get("shape") == p["shape"] and x.get("causal") == p.get("causal")
              and dt.get(x.get("dtype"), x.get("dtype")) == p.get("dtype")), {})
    chk = [s for s in sweep if s.get("bundle") == p["bundle"] and s.get("checked")]
    chk_full = [s for s in chk if s.get("shape") == p["shape"]]
    c = (chk_full or chk or [{}])[-1]
    us = p.get("median_us")
    rows.append({
        "bundle": os.path.basename(p["bundle"]), "shape": p["shape"], "dtype": p.get("dtype"),
        "causal": p.get("causal"), "knobs": p.get("knobs"), "target": p.get("target"),
        "compile_arch": p.get("compile_arch"), "gpu": gpu, "date": date, "commit": commit,
        "attncc_us": us, "attncc_tflops": p.get("tflops"), "timing": p.get("timing"),
        "flash_us": a.get("flash_us"), "cudnn_us": a.get("cudnn_us"), "flex_us": a.get("flex_us"),
        "speedup_vs_flash": (a["flash_us"] / us) if a.get("flash_us") and us else None,
        "max_err": c.get("max_err"), "err_bound": c.get("err_bound"), "checked_shape": c.get("shape"),
        "deterministic": c.get("deterministic"), "registers": p.get("registers"),
    })
json.dump({"date": date, "gpu": gpu, "commit": commit, "rows": rows, "sweep": sweep, "anchors": anchors},
          open(dest, "w"), indent=1)
print(f"{dest}: {len(rows)} timed rows, {len(sweep)} checks ({sum(1 for s in sweep if not s.get('ok'))} not ok)")
