// TMA copies and the mbarriers that say when a block landed (full) and when
// every warp is done with its slot (empty). A descriptor (CUtensorMap, made
// by the runtime with cuTensorMapEncodeTiled) is a __grid_constant__ kernel
// parameter; TMA reads it through its generic address.
struct __align__(64) attncc_tmap { unsigned long long opaque[16]; };
__device__ __forceinline__ unsigned attncc_smem_addr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void attncc_mbar_init(unsigned long long *b, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" :: "r"(attncc_smem_addr(b)), "r"(count) : "memory");
}
__device__ __forceinline__ void attncc_mbar_fence_init() { asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory"); }
// Arrives once and expects `bytes` more from TMA before the phase completes.
__device__ __forceinline__ void attncc_mbar_expect_tx(unsigned long long *b, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" :: "r"(attncc_smem_addr(b)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void attncc_mbar_arrive(unsigned long long *b) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" :: "r"(attncc_smem_addr(b)) : "memory");
}
// Waits until the phase of parity `parity` has completed. A fresh barrier
// counts as having completed the phase of parity 1 (so a producer's first
// wait on "empty" passes).
__device__ __forceinline__ void attncc_mbar_wait(unsigned long long *b, unsigned parity) {
  const unsigned a = attncc_smem_addr(b);
  unsigned done = 0;
  while (!done)
    asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done) : "r"(a), "r"(parity) : "memory");
}

