#!/usr/bin/env bash
# Negative controls for the GPU checks: causal kernels whose contract's problem
# is edited to non-causal, so the reference is computed for the wrong
# problem. scripts/gpu-verify.sh runs them with --control: each must be
# rejected by the tolerance rule (not error, not pass), with the float64 and
# with the fp32 GPU reference. One per rung family:
#   control-causal        the scalar rung   (fused-len97-c,  bench/sweep-scalar.txt)
#   control-tc-causal     mma.sync          (tc-qstage-c,    bench/sweep-tc.txt)
#   control-wgmma-causal  wgmma + TMA       (tma-97-c,       bench/sweep-tma.txt)
# CONTROL_PAIRS="name:from ..." makes only those.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/build-bundles}
for pair in ${CONTROL_PAIRS:-control-causal:fused-len97-c control-tc-causal:tc-qstage-c control-wgmma-causal:tma-97-c control-t5-causal:t5-97-c}; do
  name=${pair%%:*} from=${pair#*:}
  [ -d "$out/$from" ] || { echo "make-control-bundle: $out/$from is missing (make-bundles.sh first)"; exit 1; }
  rm -rf "${out:?}/$name"
  cp -r "$out/$from" "$out/$name"
  python3 - "$out/$name/contract.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
assert c["problem"]["causal"], "the control's kernel must be causal"
c["problem"]["causal"] = False
json.dump(c, open(sys.argv[1], "w"), indent=1)
PY
  echo "$name"
done
