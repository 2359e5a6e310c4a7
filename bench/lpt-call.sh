# H200 call for GRID=lpt (issue 15; written 2026-12-03, not run yet): first the correctness
# call (bench/lpt-verify-call.sh), then 3 alternating rounds of the pairs of bench/perf-lpt.txt
# (scripts/gpu-abab.sh). Bundle bench/sweep-lpt.txt, bench/perf-lpt-check.txt and
# bench/perf-lpt.txt into build-bundles; carry build-deps and build-bundles; COMMIT=<hash>.
set -u
bash bench/lpt-verify-call.sh
mkdir -p $OUT/ab
B=$(ls -d build-bundles/[tl]-* | tr '\n' ' ')
OUT=$OUT/ab BUNDLES="$B" ROUNDS=3 BENCH=30 timeout 300 bash scripts/gpu-abab.sh 2>&1 | tail -16
