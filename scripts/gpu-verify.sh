#!/usr/bin/env bash
# The one GPU command for correctness (TESTING.md): on a machine with a GPU,
# from the repository root. `ctest -L gpu` runs it; without a GPU it says so
# and exits 77 (ctest: skipped).
#   1. the sweep: every bundle of $SWEEP (default below; SWEEP="" runs none, like FULL="" and the rest) against the float64
#      CPU reference, O and LSE, poisoned outputs, every repeat bitwise equal;
#      symbolic bundles at several sizes; the ladder at [1,8,1024,64];
#      LADDER_SWEEP=1 adds every rung over the TESTING.md lengths;
#   2. the defaults at full size (bench/perf-default.txt and perf-extra.txt)
#      against the fp32 GPU reference, O and LSE;
#   3. the fp32 GPU reference itself held to the tolerance rule against the
#      float64 one on shapes both can do (--compare-references);
#   4. negative controls (kernels judged against the wrong problem): each must
#      be rejected by the tolerance rule (--control), not error and not pass;
#   5. compute-sanitizer memcheck and racecheck on $SAN (each run up to $SAN_TIMEOUT s, 300 by default;
#      SAN_TOOLS="racecheck" runs only that tool).
# Every line goes to $out/verify.jsonl; sanitizer results to sanitizers.jsonl;
# scripts/results-json.py writes $out/results.json (date, GPU, commit, knobs).
# Exits non-zero on any line that is not ok, any sanitizer error and any
# control that was not rejected.
# On the H200 (no MLIR): build-deps/ (scripts/gpu-deps.sh) and build-bundles/
# (scripts/make-bundles.sh + scripts/make-control-bundle.sh, see
# docs/results.md) are carried along; with MLIR here the bundles are made.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "gpu-verify: no GPU on this machine: skipped (it needs one; CI has none)"
  exit 77
fi
SWEEP=${SWEEP-bench/sweep-scalar.txt bench/sweep-tc.txt bench/sweep-tma.txt bench/sweep-wspec.txt bench/sweep-x4.txt bench/sweep-moves.txt bench/sweep-wgmma.txt bench/sweep-f16x.txt bench/sweep-tma-mma.txt bench/sweep-tcgen05.txt}
FULL=${FULL-bench/perf-default.txt bench/perf-extra.txt}
LADDER=${LADDER-bench/ladder.txt bench/ladder-tcgen05.txt}
SAN=${SAN-fused-len97-c cut-113x203-c split-masked-rows split-decode tc-ring-c tc-qstage-c tma-97-c w4pw-97-c mv-len97-c-smem}
CONTROLS=${CONTROLS-control-causal control-tc-causal control-wgmma-causal control-t5-causal}
REFS=${REFS-fused-len97-c fused-1023-c-bf16 fused-gqa4 fused-bias fused-window fused-masked-rows split-decode}
# at BUNDLE B SQ SK: the --set flags for the sizes BUNDLE left symbolic.
at() {
  python3 - "$@" <<'PY'
import json, sys
b, vals = sys.argv[1], dict(zip(("batch", "seq_q", "seq_k"), sys.argv[2:5]))
p = json.load(open(b + "/contract.json"))["problem"]
print(" ".join(f"--set {k}={v}" for k, v in vals.items() if str(p[k]).startswith("?")))
PY
}
source scripts/gpu-build-runner.sh
if [ ! -d build-bundles ] && [ -x build/tools/attncc/attncc ]; then
  # shellcheck disable=SC2086
  bash scripts/make-bundles.sh $SWEEP $FULL $LADDER > /dev/null
  bash scripts/make-control-bundle.sh
fi
: > "$out/verify.jsonl"
: > "$out/sanitizers.jsonl"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$out/gpu.txt"
failed=0
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
# A runner call that fails (or hangs past STEP_TIMEOUT seconds) counts; the
# run goes on so that every line is seen.
run() {
  timeout "${STEP_TIMEOUT:-300}" "$R" --json "$out/verify.jsonl" "$@" | tail -1 || {
    echo "gpu-verify: FAILED (exit ${PIPESTATUS[0]}): attncc-runner $*" | cut -c1-300
    failed=$((failed + 1))
  }
}

stamp "0. NVRTC-compile every bundle into the cubin cache, in parallel"
# Errors show again, per bundle, in the steps below.
find build-bundles -mindepth 1 -maxdepth 1 -type d | sort | xargs -P "$(nproc)" -n 4 "$R" --compile-only \
  > /tmp/compile.log 2>&1 || true
grep -c '"status":"error"' /tmp/compile.log | sed 's/$/ bundles did not compile/' || true

stamp "1. sweep"
for list in $SWEEP; do
  # shellcheck disable=SC2046
  run $(names "$list" | grep -v sym | sed 's|^|build-bundles/|')
  for b in $(names "$list" | grep sym); do
    for p in 2:300:77 1:1:1000 3:129:129; do
      # shellcheck disable=SC2046
      run $(at "build-bundles/$b" ${p//:/ }) "build-bundles/$b"
    done
  done
done
for list in $LADDER; do
  for b in $(names "$list"); do run --set seq_q=1024 --set seq_k=1024 "build-bundles/$b"; done
done
if [ "${LADDER_SWEEP:-0}" = 1 ]; then
  for b in $(names bench/ladder-sweep.txt); do
    for p in 1:1:1 1:17:17 2:97:97 1:128:128 1:257:257 1:1025:1025 2:113:203 1:1:339 1:3:1024 1:512:256; do
      # shellcheck disable=SC2046
      run $(at "build-bundles/$b" ${p//:/ }) "build-bundles/$b"
    done
  done
fi

stamp "2. defaults at full size (fp32 GPU reference)"
# shellcheck disable=SC2046
[ -z "$FULL" ] || run --gpu-reference $(for l in $FULL; do names "$l"; done | grep -v '^alt' | sed 's|^|build-bundles/|')

stamp "3. the GPU reference against the float64 one"
# shellcheck disable=SC2046
[ -z "$REFS" ] || run --compare-references $(for b in $REFS; do echo "build-bundles/$b"; done)

stamp "4. negative controls (must be rejected by the tolerance rule)"
for b in $CONTROLS; do
  run --control "build-bundles/$b"
  run --control --gpu-reference "build-bundles/$b"
done

stamp "5. sanitizers"
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for b in $SAN; do
  for tool in ${SAN_TOOLS:-memcheck racecheck}; do
    rc=0
    timeout "${SAN_TIMEOUT:-300}" "$san" --tool "$tool" --error-exitcode 3 "$R" "build-bundles/$b" > /tmp/san.log 2>&1 || rc=$?
    summary=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log | tail -1 || true)
    echo "$tool $b: exit $rc  $summary"
    python3 -c 'import json,sys; print(json.dumps({"tool": sys.argv[1], "bundle": sys.argv[2], "exit": int(sys.argv[3]), "summary": sys.argv[4]}))' \
      "$tool" "$b" "$rc" "$summary" >> "$out/sanitizers.jsonl"
    [ "$rc" = 0 ] || failed=$((failed + 1))
  done
done

stamp "summary"
python3 scripts/results-json.py "$out" --what "scripts/gpu-verify.sh" > /dev/null
python3 - "$out" <<'PY' || failed=$((failed + 1))
import json, os, sys
d = sys.argv[1]
rows = [json.loads(l) for l in open(os.path.join(d, "verify.jsonl"))]
san = [json.loads(l) for l in open(os.path.join(d, "sanitizers.jsonl"))]
bad = [r for r in rows if not r.get("ok")]
by = {}
for r in rows:
    by[r.get("status")] = by.get(r.get("status"), 0) + 1
print(f"verify: {len(rows)} lines: " + ", ".join(f"{n} {s}" for s, n in sorted(by.items())))
for r in bad:
    print("  NOT OK", r.get("status"), r.get("bundle"), r.get("shape"), r.get("error", ""),
          "o", r.get("max_err"), "<=", r.get("err_bound"), "lse", r.get("lse_err"), "<=", r.get("lse_bound"))
sbad = [s for s in san if s["exit"] != 0]
print(f"sanitizers: {len(san) - len(sbad)} of {len(san)} clean")
for s in sbad:
    print("  NOT CLEAN", s)
sys.exit(1 if bad or sbad or not rows else 0)
PY
echo "gpu-verify: $([ $failed = 0 ] && echo PASSED || echo "FAILED ($failed failed steps)")"
[ $failed = 0 ]
