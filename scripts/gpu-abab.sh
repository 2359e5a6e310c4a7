#!/usr/bin/env bash
# Repeated alternating timing of a few bundles in one device call, for a
# kernel whose before/after ratio (scripts/gpu-before-after.sh) is in doubt:
# each round times every bundle of $BUNDLES once, in order, $BENCH CUDA-graph
# replays each (default 30), for $ROUNDS rounds (default 4). Writes
# $out/x.jsonl (the runner's lines) and $out/abab.json (date, GPU, $COMMIT,
# $COMMIT_OLD, each bundle's knobs and its medians per round); prints the
# table last. RUNNER_FLAGS go to every timed run (e.g. --full-lengths for a
# paged cache). Carry build-deps and the bundle folders named.
#   BUNDLES="build-bundles-old/def-d128-16384-c build-bundles/def-d128-16384-c" \
#     COMMIT=... COMMIT_OLD=... bash scripts/gpu-abab.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${ABAB_TABLE_ONLY:-0}" = 0 ]; then
  source scripts/gpu-build-runner.sh
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$out/gpu.txt"
  for b in $BUNDLES; do echo "$b"; done | xargs -P 4 -n 1 "$R" --compile-only > /tmp/abab-compile.log 2>&1 \
    || tail -5 /tmp/abab-compile.log
  for round in $(seq "${ROUNDS:-4}"); do
    for b in $BUNDLES; do
      # shellcheck disable=SC2086
      timeout 60 "$R" ${RUNNER_FLAGS:-} --no-check --bench "${BENCH:-30}" --json "$out/x.jsonl" "$b" > /dev/null || echo "gpu-abab: $b failed"
    done
  done
fi
out=${OUT:-$PWD/gpu-out}
python3 - "$out" <<'PY'
import collections, datetime, json, os, sys
d = sys.argv[1]
rows = collections.OrderedDict()
for l in open(os.path.join(d, "x.jsonl")):
    r = json.loads(l)
    row = rows.setdefault(r["bundle"], {"bundle": r["bundle"], "knobs": r.get("knobs"), "shape": r.get("shape"),
                                        "dtype": r.get("dtype"), "causal": r.get("causal"), "median_us": []})
    row["median_us"].append(r.get("median_us"))
gpu = open(os.path.join(d, "gpu.txt")).read().strip() if os.path.exists(os.path.join(d, "gpu.txt")) else ""
res = {"date": os.environ.get("DATE", datetime.date.today().isoformat()), "gpu": gpu,
       "commit": os.environ.get("COMMIT", ""), "commit_old": os.environ.get("COMMIT_OLD", ""),
       "what": "scripts/gpu-abab.sh: rounds of every bundle in turn, medians of CUDA-graph replays",
       "note": os.environ.get("NOTE", ""), "rows": list(rows.values())}
json.dump(res, open(os.path.join(d, "abab.json"), "w"), indent=1)
for r in rows.values():
    print(f"{r['bundle']:42s} " + " ".join(f"{x:8.1f}" for x in r["median_us"] if x))
PY
