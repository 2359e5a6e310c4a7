#!/usr/bin/env bash
# A negative control for the GPU checks: the causal fused-len97-c kernel with
# its contract's problem edited to non-causal. Both references must reject it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/build-bundles}
rm -rf "$out/control-causal"
cp -r "$out/fused-len97-c" "$out/control-causal"
python3 - "$out/control-causal/contract.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["problem"]["causal"] = False
json.dump(c, open(sys.argv[1], "w"), indent=1)
PY
