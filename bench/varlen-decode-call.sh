# H200 call (2026-12-05, twelfth session): varlen decode with PACK=gqa as the default (seq_q = 1).
#   1. bench/sweep-varlen.txt again (every line; vl-decode-default now packs the KV group's heads).
#   2. The varlen decode lines of bench/perf-varlen.txt (the new default at [8,32/8,1,32768,128],
#      [64,32/8,1,4096,128] and MQA [16,32/1,1,8192,128]; pv-decode-pk pinned; the dense default),
#      ragged and full, 30 replays; PyTorch's varlen flash on the same lengths
#      (scripts/anchors-varlen.py) and flash and cuDNN on the dense shapes (scripts/anchors-all.py).
# Bundle both lists into build-bundles; carry build-deps, build-bundles, build-bench; COMMIT=<hash>.
set -u
export COMMIT=${COMMIT:-wip}
mkdir -p $OUT/v $OUT/t
OUT=$OUT/v SWEEP="bench/sweep-varlen.txt" FULL="" LADDER="" SAN="" CONTROLS="" REFS="" \
  STEP_TIMEOUT=150 timeout 170 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -8
python3 scripts/results-json.py $OUT/v --what "bench/varlen-decode-call.sh: bench/sweep-varlen.txt with PACK=gqa in the varlen decode default" > /dev/null 2>&1 || echo results-json failed
rm -f $OUT/v/verify.jsonl $OUT/v/gpu.txt $OUT/v/sanitizers.jsonl
OUT=$OUT/t source scripts/gpu-build-runner.sh > /dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/t/gpu.txt
for name in pv-decode pv-decode-pk pv-decode-b64 pv-decode-mqa pv-dense-decode; do
  for f in "" --full-lengths; do
    timeout 40 $R $f --no-check --bench 30 --json $OUT/t/x.jsonl build-bundles/$name > /dev/null || echo "$name $f failed"
  done
done
timeout 90 python3 scripts/anchors-varlen.py $OUT/t/x.jsonl > $OUT/t/anchors.jsonl 2>/tmp/anch.err || tail -3 /tmp/anch.err
NO_FLEX=1 timeout 100 python3 scripts/anchors-all.py 8,32,8,1,32768,128,bf16 64,32,8,1,4096,128,bf16 16,32,1,1,8192,128,bf16 \
  > $OUT/t/dense-anchors.jsonl 2>/tmp/danch.err || tail -3 /tmp/danch.err
python3 - $OUT/t <<'PY'
import datetime, json, os, sys
d = sys.argv[1]
runs = [json.loads(l) for l in open(os.path.join(d, "x.jsonl"))]
anch = [json.loads(l) for l in open(os.path.join(d, "anchors.jsonl"))]
dense = [json.loads(l) for l in open(os.path.join(d, "dense-anchors.jsonl"))]
json.dump({"date": datetime.date.today().isoformat(), "gpu": open(os.path.join(d, "gpu.txt")).read().strip(),
           "commit": os.environ.get("COMMIT", ""), "what": "bench/varlen-decode-call.sh: varlen decode (PACK=gqa default), "
           "ragged and full, beside PyTorch's varlen flash on the same lengths and flash/cuDNN on the dense shapes",
           "runs": runs, "anchors": anch, "dense_anchors": dense}, open(os.path.join(d, "varlen-decode.json"), "w"), indent=1)
by_line = {a["line"]: a for a in anch}
for n, r in enumerate(runs):
    a = by_line.get(n, {})
    print(f"{r['bundle'].split('/')[-1]:16s} {r.get('median_us', 0):8.1f} us {r.get('gbps', r.get('tflops', 0)):8.1f}",
          f"flash varlen {a['flash_varlen_us']:8.1f} ({a['flash_varlen_us'] / r['median_us']:.2f}x)" if "flash_varlen_us" in a else a.get("error", "")[:80])
for a in dense:
    print(a.get("shape"), "flash", a.get("flash_us"), "cudnn", a.get("cudnn_us"))
PY
rm -f $OUT/t/x.jsonl
