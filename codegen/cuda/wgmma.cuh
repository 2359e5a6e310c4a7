// wgmma (sm_90a; PTX ISA: asynchronous warpgroup-level matrix instructions).
// A shared-memory operand is a descriptor of a 128-byte swizzled block:
// start address, leading byte offset (MN-major: the stride of 64-element
// slabs), stride byte offset 1024 (8 rows of 128 B), swizzle mode 1.
__device__ __forceinline__ unsigned long long attncc_desc_sw128(const void *p, unsigned lbo) {
  unsigned a = (unsigned)__cvta_generic_to_shared(p);
  return (unsigned long long)((a & 0x3FFFF) >> 4) | ((unsigned long long)((lbo & 0x3FFFF) >> 4) << 16) |
         ((unsigned long long)(1024 >> 4) << 32) | (1ULL << 62);
}
__device__ __forceinline__ void attncc_wgmma_arrive() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void attncc_wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void attncc_wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" :: "n"(N) : "memory");
}
// Keeps the compiler from moving accesses of an accumulator across the
// asynchronous instructions that write it.
__device__ __forceinline__ void attncc_fence_operand(float &r) { asm volatile("" : "+f"(r) :: "memory"); }

