// tcgen05 and tensor memory (sm_100a; PTX ISA 8.6+, section "TensorCore 5th
// Generation Family Instructions"), one device function per instruction the
// tcgen05 path will print (docs/design-tcgen05.md). codegen/cuda/
// tcgen05_emu.cuh will define the same functions for `--emulate`, so the
// kernel text is the same either way. cta_group::1 throughout (every
// tcgen05 instruction of a kernel must use the same one). Not yet called by
// any kernel: the test tests/unit/tcgen05_test.cpp compiles each for
// sm_100a through NVRTC.

// tcgen05.alloc writes the address of nCols columns (a power of two in
// [32, 512]) into shared memory at `dst`; the whole warp issues it.
__device__ __forceinline__ void attncc_tcgen05_alloc(unsigned *dst, unsigned nCols) {
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;\n"
               :: "r"((unsigned)__cvta_generic_to_shared(dst)), "r"(nCols) : "memory");
}
__device__ __forceinline__ void attncc_tcgen05_relinquish() {
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void attncc_tcgen05_dealloc(unsigned taddr, unsigned nCols) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;\n" :: "r"(taddr), "r"(nCols) : "memory");
}

// tcgen05.mma .kind::f16, issued by one thread: D (tensor memory) = A * B
// (+ D when `accumulate`). SS: A and B are shared-memory descriptors; TS: A
// is in tensor memory (K-major), B a descriptor. `idesc` is the instruction
// descriptor (isa/Tcgen05.h builds it).
__device__ __forceinline__ void attncc_tcgen05_mma_ss(unsigned d, unsigned long long da, unsigned long long db,
                                                      unsigned idesc, unsigned accumulate) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %4, 0;\n"
               "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n}\n"
               :: "r"(d), "l"(da), "l"(db), "r"(idesc), "r"(accumulate) : "memory");
}
__device__ __forceinline__ void attncc_tcgen05_mma_ts(unsigned d, unsigned a, unsigned long long db, unsigned idesc,
                                                      unsigned accumulate) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %4, 0;\n"
               "tcgen05.mma.cta_group::1.kind::f16 [%0], [%1], %2, %3, p;\n}\n"
               :: "r"(d), "r"(a), "l"(db), "r"(idesc), "r"(accumulate) : "memory");
}

// The products this thread issued so far arrive on the mbarrier when done.
__device__ __forceinline__ void attncc_tcgen05_commit(unsigned long long *mbar) {
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];\n"
               :: "r"((unsigned)__cvta_generic_to_shared(mbar)) : "memory");
}

// Ordering tcgen05 work with thread synchronization (before a barrier or
// mbarrier arrive, after the wait).
__device__ __forceinline__ void attncc_tcgen05_fence_before() {
  asm volatile("tcgen05.fence::before_thread_sync;\n" ::: "memory");
}
__device__ __forceinline__ void attncc_tcgen05_fence_after() {
  asm volatile("tcgen05.fence::after_thread_sync;\n" ::: "memory");
}

// tcgen05.ld/st .32x32b.x8: thread t of the warp reads (writes) lane
// lane(taddr) + t, 8 consecutive columns; the warp must own that lane
// quarter (warp % 4). Waited for by tcgen05.wait::ld / ::st.
__device__ __forceinline__ void attncc_tcgen05_ld_32x32b_x8(unsigned *r, unsigned taddr) {
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x8.b32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7])
               : "r"(taddr) : "memory");
}
__device__ __forceinline__ void attncc_tcgen05_st_32x32b_x8(unsigned taddr, const unsigned *r) {
  asm volatile("tcgen05.st.sync.aligned.32x32b.x8.b32 [%0], {%1, %2, %3, %4, %5, %6, %7, %8};\n"
               :: "r"(taddr), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]), "r"(r[4]), "r"(r[5]), "r"(r[6]),
                  "r"(r[7]) : "memory");
}
__device__ __forceinline__ void attncc_tcgen05_wait_ld() { asm volatile("tcgen05.wait::ld.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void attncc_tcgen05_wait_st() { asm volatile("tcgen05.wait::st.sync.aligned;\n" ::: "memory"); }
