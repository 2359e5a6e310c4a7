// tcgen05 and tensor memory (sm_100a; PTX ISA 8.6+, section "TensorCore 5th
// Generation Family Instructions"), one device function per instruction the
// tcgen05 path prints (codegen/EmitTcgen05.cpp). codegen/cuda/
// tcgen05_emu.cuh defines the same functions for `--emulate`, so the
// kernel text is the same either way. cta_group::1 throughout (every
// tcgen05 instruction of a kernel must use the same one). The unit test
// tests/unit/tcgen05_test.cpp compiles each for sm_100a through NVRTC.
// Needs tma.cuh (attncc_smem_addr, the mbarriers) before it.

// tcgen05.alloc writes the address of nCols columns (a power of two in
// [32, 512]) into shared memory at `dst`; the whole warp issues it.
__device__ __forceinline__ void attncc_tcgen05_alloc(void *dst, unsigned nCols) {
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
__device__ __forceinline__ void attncc_tcgen05_commit(void *mbar) {
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

// tcgen05.ld/st .32x32b of N columns (a multiple of 8), as N / 8 .x8
// accesses: thread t of the warp reads (writes) lane lane(taddr) + t,
// column col(taddr) + j into r[j]; the warp must own that lane quarter
// (warp % 4). Waited for by tcgen05.wait::ld / ::st.
template <int N, typename T> __device__ __forceinline__ void attncc_tcgen05_ld_32x32b(T *r, unsigned taddr) {
  static_assert(N % 8 == 0, "tcgen05.ld of a multiple of 8 columns");
#pragma unroll
  for (int j = 0; j < N; j += 8)
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x8.b32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8];\n"
                 : "=r"(r[j]), "=r"(r[j + 1]), "=r"(r[j + 2]), "=r"(r[j + 3]), "=r"(r[j + 4]), "=r"(r[j + 5]),
                   "=r"(r[j + 6]), "=r"(r[j + 7])
                 : "r"(taddr + j) : "memory");
}
template <int N, typename T> __device__ __forceinline__ void attncc_tcgen05_st_32x32b(unsigned taddr, const T *r) {
  static_assert(N % 8 == 0, "tcgen05.st of a multiple of 8 columns");
#pragma unroll
  for (int j = 0; j < N; j += 8)
    asm volatile("tcgen05.st.sync.aligned.32x32b.x8.b32 [%0], {%1, %2, %3, %4, %5, %6, %7, %8};\n"
                 :: "r"(taddr + j), "r"(r[j]), "r"(r[j + 1]), "r"(r[j + 2]), "r"(r[j + 3]), "r"(r[j + 4]),
                    "r"(r[j + 5]), "r"(r[j + 6]), "r"(r[j + 7]) : "memory");
}
__device__ __forceinline__ void attncc_tcgen05_wait_ld() { asm volatile("tcgen05.wait::ld.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void attncc_tcgen05_wait_st() { asm volatile("tcgen05.wait::st.sync.aligned;\n" ::: "memory"); }
