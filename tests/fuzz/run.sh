#!/usr/bin/env bash
# Builds the libFuzzer targets of the MLIR-free parsers with clang and runs
# each for a bounded time from the seed corpus (a copy, so the repo's corpus
# stays as committed). The monoid-dialect parser is fuzzed too when the MLIR
# build exists. Usage: run.sh OUT_DIR [SECONDS] [MLIR_BUILD_DIR]
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
secs=${2:-15}
mlirBuild=${3:-}
cxx=$(command -v clang++-14 || command -v clang++ || true)
if [ -z "$cxx" ]; then
  echo "fuzz: no clang++ (scripts/setup.sh installs clang-14)"; exit 1
fi
mkdir -p "$out"
flags=(-std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I"$src")
"$cxx" "${flags[@]}" "$src/tests/fuzz/knobs_fuzz.cpp" "$src/schedule/KnobCodec.cpp" \
  "$src/schedule/Geometry.cpp" -o "$out/knobs_fuzz"
"$cxx" "${flags[@]}" "$src/tests/fuzz/problem_fuzz.cpp" "$src/runtime/problem/Problem.cpp" \
  -o "$out/problem_fuzz"
targets=(knobs problem)
if [ -n "$mlirBuild" ] && [ -f "$mlirBuild/compiler/libattncc_compiler.a" ]; then
  # MLIR is built with gcc and without RTTI; the driver links against it as is.
  "$cxx" -std=c++17 -O1 -g -fno-rtti -fsanitize=fuzzer -I"$src" -I"$mlirBuild" \
    -I/usr/lib/llvm-22/include "$src/tests/fuzz/mlir_fuzz.cpp" \
    "$mlirBuild/compiler/libattncc_compiler.a" "$mlirBuild/passes/libattncc_passes.a" \
    "$mlirBuild/ir/libattncc_ir.a" "$mlirBuild/schedule/libattncc_schedule.a" "$mlirBuild/isa/libattncc_isa.a" \
    /usr/lib/llvm-22/lib/libMLIR.so /usr/lib/llvm-22/lib/libLLVM.so \
    -Wl,-rpath,/usr/lib/llvm-22/lib -o "$out/mlir_fuzz"
  mkdir -p "$src/tests/fuzz/corpus/mlir"
  targets+=(mlir)
fi
for t in "${targets[@]}"; do
  rm -rf "$out/corpus-$t" && cp -r "$src/tests/fuzz/corpus/$t" "$out/corpus-$t"
  # The dialect's own lit inputs seed the parser fuzzer.
  [ "$t" = mlir ] && cp "$src"/tests/lit/dialect/*.mlir "$src"/tests/lit/passes/*.mlir "$out/corpus-$t/"
  "$out/${t}_fuzz" -max_total_time="$secs" -timeout=5 -print_final_stats=1 "$out/corpus-$t" \
    > "$out/$t.log" 2>&1 || { tail -40 "$out/$t.log"; exit 1; }
  grep -E "stat::number_of_executed_units" "$out/$t.log" | sed "s/^/$t: /"
done
echo "fuzz: no crash, no hang, no sanitizer report"
