#!/usr/bin/env bash
# On the GPU host: time every bundle of bench/tune-scalar.txt (checked first),
# one JSON line each in $OUT/tune.jsonl. Needs build-deps/ and build-bundles/.
set -uo pipefail
source "$(dirname "$0")/gpu-build-runner.sh"
list=$(grep -v '^#' bench/tune-scalar.txt | cut -d'|' -f1 | tr -d ' ' | sed '/^$/d' | sed 's|^|build-bundles/|')
# shellcheck disable=SC2086
$R --bench 10 --json "$out/tune.jsonl" $list | tail -1
python3 - "$out/tune.jsonl" <<'PY'
import json, sys, os
for l in open(sys.argv[1]):
    r = json.loads(l)
    print(f"{os.path.basename(r['bundle']):22s} {r.get('knobs',''):18s} {r.get('median_us', 0):10.1f} us "
          f"ok={r['ok']} err={r.get('max_err')}")
PY
tar czf "$out/gpu-out.tgz" -C "$out" --exclude gpu-out.tgz . 2>/dev/null
