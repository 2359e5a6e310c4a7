#!/usr/bin/env bash
# Nsight Compute on one launch of the kernel `attention` of each bundle in
# $BUNDLES (the second launch: the first is the warm-up), with the clocks left
# alone (--clock-control none, as the device notes ask), for a kernel whose
# speed moved and whose cause is in doubt. Sections: SpeedOfLight,
# WarpStateStats, SchedulerStats, LaunchStats, Occupancy, ComputeWorkloadAnalysis,
# the tensor pipe's active cycles and the stall reasons; FLASH adds PyTorch's
# flash backend at given shapes (below).
# Writes $out/ncu.json (date, GPU, $COMMIT,
# $COMMIT_OLD, each bundle's knobs and metrics); prints a short table last.
# Carry build-deps and the bundle folders named.
#   BUNDLES="build-bundles-old/def-d128-16384-c build-bundles/def-d128-16384-c" \
#     COMMIT=... COMMIT_OLD=... bash scripts/gpu-ncu.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-build-runner.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$out/gpu.txt"
for b in $BUNDLES; do echo "$b"; done | xargs -P 4 -n 1 "$R" --compile-only > /tmp/ncu-compile.log 2>&1 \
  || tail -5 /tmp/ncu-compile.log
tmp=$(mktemp -d)   # the device returns at most 8 files: only ncu.json and gpu.txt go to $out
i=0
for b in $BUNDLES; do
  i=$((i + 1))
  timeout 200 ncu --clock-control none -k attention --launch-skip 1 --launch-count 1 --csv --page details \
    --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section LaunchStats \
    --section Occupancy --section ComputeWorkloadAnalysis \
    --metrics sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,smsp__average_warps_issue_stalled_membar_per_issue_active.ratio,smsp__average_warps_issue_stalled_sleeping_per_issue_active.ratio,smsp__average_warps_issue_stalled_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_per_issue_active.ratio,smsp__average_warps_issue_stalled_tex_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_drain_per_issue_active.ratio,smsp__average_warps_issue_stalled_imc_miss_per_issue_active.ratio,smsp__average_warps_issue_stalled_misc_per_issue_active.ratio \
    "$R" --no-check --bench 2 "$b" > "$tmp/ncu-$i.csv" 2> "$tmp/ncu-$i.err" || echo "gpu-ncu: $b failed"
  echo "$b" > "$tmp/ncu-$i.bundle"
done
# FLASH="B,H,S,D,dtype[,causal] ...": PyTorch's flash backend (FlashAttention-2)
# at those shapes, profiled the same way (its forward kernel, second launch).
j=0
for shp in ${FLASH:-}; do
  j=$((j + 1)); i=$((i + 1))
  IFS=, read -r fb fh fs fd fdt fc <<< "$shp"
  cat > "$tmp/flash-$j.py" <<PYF
import torch, torch.nn.functional as F
from torch.nn.attention import sdpa_kernel, SDPBackend
dt = torch.bfloat16 if "$fdt" == "bf16" else torch.float16
q, k, v = (torch.randn($fb, $fh, $fs, $fd, device="cuda", dtype=dt) for _ in range(3))
with sdpa_kernel([SDPBackend.FLASH_ATTENTION]):
    for _ in range(3):
        F.scaled_dot_product_attention(q, k, v, is_causal="$fc" == "causal")
torch.cuda.synchronize()
PYF
  timeout 200 ncu --clock-control none -k regex:flash --launch-skip 1 --launch-count 1 --csv --page details \
    --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section LaunchStats \
    --section Occupancy --section ComputeWorkloadAnalysis \
    --metrics sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,$(echo smsp__average_warps_issue_stalled_{long_scoreboard,barrier,wait,math_pipe_throttle,short_scoreboard,mio_throttle,dispatch_stall,selected,not_selected}_per_issue_active.ratio | tr ' ' ,) \
    python3 "$tmp/flash-$j.py" > "$tmp/ncu-$i.csv" 2> "$tmp/ncu-$i.err" || echo "gpu-ncu: flash $shp failed"
  echo "torch-flash $shp" > "$tmp/ncu-$i.bundle"
done
python3 - "$out" "$tmp" <<'PY'
import csv, datetime, glob, json, os, sys
d = sys.argv[1]
rows = []
for f in sorted(glob.glob(os.path.join(sys.argv[2], "ncu-*.csv")), key=lambda p: int(p.split("-")[-1][:-4])):
    b = open(f[:-4] + ".bundle").read().strip()
    lines = [l for l in open(f) if l.startswith('"')]
    m = {}
    for r in csv.DictReader(lines):
        m[f'{r["Section Name"]}/{r["Metric Name"]} [{r["Metric Unit"]}]'] = r["Metric Value"]
    knobs = json.load(open(os.path.join(b, "contract.json"))).get("knobs") if os.path.exists(os.path.join(b, "contract.json")) else None
    if b.startswith("torch-flash"):
        knobs = "PyTorch's flash backend (FlashAttention-2)"
    rows.append({"bundle": b, "knobs": knobs, "metrics": m})
gpu = open(os.path.join(d, "gpu.txt")).read().strip()
json.dump({"date": datetime.date.today().isoformat(), "gpu": gpu, "commit": os.environ.get("COMMIT", ""),
           "commit_old": os.environ.get("COMMIT_OLD", ""), "note": os.environ.get("NOTE", ""),
           "what": "scripts/gpu-ncu.sh: ncu --clock-control none, second launch of `attention`", "rows": rows},
          open(os.path.join(d, "ncu.json"), "w"), indent=1)
keys = ["Duration", "Elapsed Cycles", "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
        "smsp__inst_executed.sum", "Achieved Occupancy", "SM Frequency", "Compute (SM) Throughput", "Registers Per Thread",
        "Issue Slots Busy", "No Eligible", "Warp Cycles Per Issued Instruction", "Executed Ipc Active"] + \
       ["smsp__average_warps_issue_stalled_" + x + "_per_issue_active.ratio" for x in ['long_scoreboard', 'barrier', 'wait', 'math_pipe_throttle', 'short_scoreboard', 'mio_throttle', 'lg_throttle', 'dispatch_stall', 'membar', 'sleeping', 'selected', 'not_selected', 'no_instruction', 'branch_resolving', 'math', 'tex_throttle', 'drain', 'imc_miss', 'misc']]
for k in keys:
    vals = []
    for r in rows:
        v = next((val for name, val in r["metrics"].items() if name.split("/", 1)[1].startswith(k + " [")), "-")
        vals.append(v)
    print(f"{k.replace('smsp__average_warps_issue_stalled_', 'stall ').replace('_per_issue_active.ratio', ''):36s} " + " ".join(f"{v:>14s}" for v in vals))
PY
