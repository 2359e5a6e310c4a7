// MLIR 22.1.8 (Debian) aborts on this input: vector.contract's parser meets a non-string
// entry of iterator_types and ends in llvm::report_bad_alloc_error (mlir-opt exits 134).
// Found by tests/fuzz (mlir_fuzz) on 2026-12-03 from a mutation of a lit input; not attncc's
// code, so the fuzz target skips vector.contract text (tests/fuzz/mlir_fuzz.cpp). Not run by
// any test; kept as the reproducer.
#a = affine_map<(i, j, d) -> (i, d)>
func.func @f(%q: vector<4x4xf16>, %k: vector<4x4xf16>, %z: vector<4x4xf32>) -> vector<4x4xf32> {
  %o = vector.contract {indexing_maps = [#a, #a, #a], iterator_types = ["parallel", "parallel", affine_map<(i, j, d) -> (j, d)>], kind = #vector.kind<add>} %q, %k, %z : vector<4x4xf16>, vector<4x4xf16> into vector<4x4xf32>
  return %o : vector<4x4xf32>
}
