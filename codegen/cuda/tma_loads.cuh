// TMA loads of a box of rank 1 to 5 (PTX ISA: cp.async.bulk.tensor), one
// device function per rank: the coordinates, innermost first, are one
// operand each. The emitter prints the section of each rank a kernel uses
// (between `// attncc-helper: NAME` and `// attncc-helper-end`); tma.cuh
// (attncc_tmap, attncc_smem_addr) comes before them.
// attncc-helper: attncc_tma_load_1d
__device__ __forceinline__ void attncc_tma_load_1d(void *dst, const attncc_tmap *map, int c0, unsigned long long *bar) {
  asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];\n"
               :: "r"(attncc_smem_addr(dst)), "l"(reinterpret_cast<unsigned long long>(map)), "r"(c0), "r"(attncc_smem_addr(bar)) : "memory");
}
// attncc-helper-end
// attncc-helper: attncc_tma_load_2d
__device__ __forceinline__ void attncc_tma_load_2d(void *dst, const attncc_tmap *map, int c0, int c1, unsigned long long *bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n"
               :: "r"(attncc_smem_addr(dst)), "l"(reinterpret_cast<unsigned long long>(map)), "r"(c0), "r"(c1), "r"(attncc_smem_addr(bar)) : "memory");
}
// attncc-helper-end
// attncc-helper: attncc_tma_load_3d
__device__ __forceinline__ void attncc_tma_load_3d(void *dst, const attncc_tmap *map, int c0, int c1, int c2, unsigned long long *bar) {
  asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];\n"
               :: "r"(attncc_smem_addr(dst)), "l"(reinterpret_cast<unsigned long long>(map)), "r"(c0), "r"(c1), "r"(c2), "r"(attncc_smem_addr(bar)) : "memory");
}
// attncc-helper-end
// attncc-helper: attncc_tma_load_4d
__device__ __forceinline__ void attncc_tma_load_4d(void *dst, const attncc_tmap *map, int c0, int c1, int c2, int c3, unsigned long long *bar) {
  asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];\n"
               :: "r"(attncc_smem_addr(dst)), "l"(reinterpret_cast<unsigned long long>(map)), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(attncc_smem_addr(bar)) : "memory");
}
// attncc-helper-end
// attncc-helper: attncc_tma_load_5d
__device__ __forceinline__ void attncc_tma_load_5d(void *dst, const attncc_tmap *map, int c0, int c1, int c2, int c3, int c4, unsigned long long *bar) {
  asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];\n"
               :: "r"(attncc_smem_addr(dst)), "l"(reinterpret_cast<unsigned long long>(map)), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4), "r"(attncc_smem_addr(bar)) : "memory");
}
// attncc-helper-end
