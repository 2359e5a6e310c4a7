#!/usr/bin/env python3
"""Writes OUT_DIR/results.json from what a GPU script wrote into OUT_DIR, and
nothing else: the runner's JSON lines (verify.jsonl, sweep.jsonl, perf.jsonl),
PyTorch's anchors (anchors.jsonl), the sanitizers (sanitizers.jsonl) and the
GPU (gpu.txt). The date is the GPU host's, the commit is $COMMIT (the device
call names it: the GPU host has no .git), `--what` says which script ran.
Timed rows carry the same call's anchors and speedups (flash_us / attncc_us,
cudnn_us / attncc_us) and the check of the same bundle, if any.

usage: results-json.py OUT_DIR --what "scripts/gpu-verify.sh ..." [--dest FILE]"""
import argparse, datetime, json, os

ap = argparse.ArgumentParser()
ap.add_argument("out")
ap.add_argument("--what", required=True)
ap.add_argument("--dest")
a = ap.parse_args()
d = a.out


def load(name):
    p = os.path.join(d, name)
    return [json.loads(l) for l in open(p) if l.strip()] if os.path.exists(p) else []


checks = load("verify.jsonl") + load("sweep.jsonl")
perf, anchors, san = load("perf.jsonl"), load("anchors.jsonl"), load("sanitizers.jsonl")
gpu = open(os.path.join(d, "gpu.txt")).read().strip() if os.path.exists(os.path.join(d, "gpu.txt")) else None
dtypes = {"float16": "f16", "bfloat16": "bf16"}
rows = []
for p in perf:
    anc = next((x for x in anchors if x.get("shape") == p.get("shape") and x.get("causal") == p.get("causal")
                and dtypes.get(x.get("dtype"), x.get("dtype")) == p.get("dtype")), {})
    same = [c for c in checks if c.get("bundle") == p.get("bundle") and c.get("checked")]
    full = [c for c in same if c.get("shape") == p.get("shape")]
    c = (full or same or [{}])[-1]
    us = p.get("median_us")
    ratio = lambda k: anc[k] / us if anc.get(k) and us else None
    rows.append({
        "bundle": os.path.basename(p.get("bundle", "")), "shape": p.get("shape"), "dtype": p.get("dtype"),
        "causal": p.get("causal"), "knobs": p.get("knobs"), "target": p.get("target"),
        "compile_arch": p.get("compile_arch"), "status": p.get("status"), "attncc_us": us,
        "attncc_tflops": p.get("tflops"), "timing": p.get("timing"),
        "flash_us": anc.get("flash_us"), "cudnn_us": anc.get("cudnn_us"), "flex_us": anc.get("flex_us"),
        "speedup_vs_flash": ratio("flash_us"), "speedup_vs_cudnn": ratio("cudnn_us"),
        "checked_shape": c.get("shape"), "check_status": c.get("status"), "max_err": c.get("max_err"),
        "err_bound": c.get("err_bound"), "lse_err": c.get("lse_err"), "lse_bound": c.get("lse_bound"),
        "registers": p.get("registers"),
    })
result = {
    "date": datetime.date.today().isoformat(), "gpu": gpu, "commit": os.environ.get("COMMIT"),
    "what": a.what, "rows": rows, "checks": checks, "sanitizers": san, "anchors": anchors,
    "summary": {
        "checks": len(checks), "checks_ok": sum(1 for c in checks if c.get("ok")),
        "timed": len(rows), "sanitizer_runs": len(san), "sanitizer_clean": sum(1 for s in san if s.get("exit") == 0),
    },
}
dest = a.dest or os.path.join(d, "results.json")
json.dump(result, open(dest, "w"), indent=1)
s = result["summary"]
print(f"{dest}: {s['checks_ok']} of {s['checks']} checks ok, {s['timed']} timed rows, "
      f"{s['sanitizer_clean']} of {s['sanitizer_runs']} sanitizer runs clean")
