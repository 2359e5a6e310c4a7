// mma.sync m16n8k16 with its operand moves (PTX ISA: warp-level matrix instructions).
__device__ __forceinline__ unsigned attncc_pack(__half lo, __half hi) {
  __half2 h = __halves2half2(lo, hi);
  return *reinterpret_cast<unsigned *>(&h);
}
// Two f32 values rounded and packed by one cvt.rn.{f16,bf16}x2.f32.
__device__ __forceinline__ unsigned attncc_pack_f16(float lo, float hi) {
  __half2 h = __floats2half2_rn(lo, hi);
  return *reinterpret_cast<unsigned *>(&h);
}
__device__ __forceinline__ unsigned attncc_pack_bf16(float lo, float hi) {
  __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<unsigned *>(&h);
}
__device__ __forceinline__ unsigned attncc_pack(__nv_bfloat16 lo, __nv_bfloat16 hi) {
  __nv_bfloat162 h = __halves2bfloat162(lo, hi);
  return *reinterpret_cast<unsigned *>(&h);
}
// Two adjacent elements of a row as one aligned store (the C fragment's pairs).
__device__ __forceinline__ void attncc_store2(__half *p, __half lo, __half hi) {
  *reinterpret_cast<__half2 *>(p) = __halves2half2(lo, hi);
}
__device__ __forceinline__ void attncc_store2(__nv_bfloat16 *p, __nv_bfloat16 lo, __nv_bfloat16 hi) {
  *reinterpret_cast<__nv_bfloat162 *>(p) = __halves2bfloat162(lo, hi);
}
__device__ __forceinline__ void attncc_store2(float *p, float lo, float hi) {
  *reinterpret_cast<float2 *>(p) = make_float2(lo, hi);
}
__device__ __forceinline__ void attncc_mma_f16(float *c, const unsigned *a, const unsigned *b) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
// ACC=f16x: the fp16-accumulate atom; c holds two half2 (rows g and g + 8).
__device__ __forceinline__ void attncc_mma_f16acc(unsigned *c, const unsigned *a, const unsigned *b) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};\n"
               : "+r"(c[0]), "+r"(c[1])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
__device__ __forceinline__ float attncc_half_of(unsigned h2, int hi) {
  return __half2float(hi ? __high2half(*reinterpret_cast<__half2 *>(&h2)) : __low2half(*reinterpret_cast<__half2 *>(&h2)));
}
__device__ __forceinline__ void attncc_mma_bf16(float *c, const unsigned *a, const unsigned *b) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
__device__ __forceinline__ void attncc_ldmatrix_x2(unsigned *r, const void *p) {
  unsigned s = (unsigned)__cvta_generic_to_shared(p);
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];\n" : "=r"(r[0]), "=r"(r[1]) : "r"(s) : "memory");
}
__device__ __forceinline__ void attncc_ldmatrix_x4(unsigned *r, const void *p) {
  unsigned s = (unsigned)__cvta_generic_to_shared(p);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(s) : "memory");
}
__device__ __forceinline__ void attncc_ldmatrix_x4_trans(unsigned *r, const void *p) {
  unsigned s = (unsigned)__cvta_generic_to_shared(p);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(s) : "memory");
}
__device__ __forceinline__ void attncc_ldmatrix_x2_trans(unsigned *r, const void *p) {
  unsigned s = (unsigned)__cvta_generic_to_shared(p);
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];\n" : "=r"(r[0]), "=r"(r[1]) : "r"(s) : "memory");
}
// 16 bytes into shared memory, of which `src_bytes` are read (the rest are zeros).
__device__ __forceinline__ void attncc_cp_async16(void *dst, const void *src, unsigned src_bytes) {
  unsigned d = (unsigned)__cvta_generic_to_shared(dst);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" :: "r"(d), "l"(src), "r"(src_bytes) : "memory");
}
__device__ __forceinline__ void attncc_cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void attncc_cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" :: "n"(N) : "memory");
}
// Shared memory written by threads (cp.async included) is read by wgmma
// and tcgen05 through the async proxy.
__device__ __forceinline__ void attncc_fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }
// Named barriers (0 is __syncthreads): the computing warps of a kernel with a
// producer warp (WSPEC=load<n>) and OVERLAP=wg's turns between warpgroups.
__device__ __forceinline__ void attncc_bar_sync(unsigned id, unsigned n) { asm volatile("bar.sync %0, %1;\n" :: "r"(id), "r"(n) : "memory"); }
__device__ __forceinline__ void attncc_bar_arrive(unsigned id, unsigned n) { asm volatile("bar.arrive %0, %1;\n" :: "r"(id), "r"(n) : "memory"); }
