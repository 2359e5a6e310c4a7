//===- GpuReference.cpp - naive fp32 attention on the GPU, for checking ---===//
#include "runtime/bundle/GpuReference.h"

#include "runtime/nvrtc/Nvrtc.h"

#include <cmath>

namespace attncc::bundle {

namespace {

// The semantics of runtime/problem/Problem.cpp, row by row, in fp32.
const char *kSource = R"CUDA(
#include <cuda_fp16.h>
#include <cuda_bf16.h>

struct RefParams {
  long long B, Hq, Hkv, Sq, Sk, D, window; // window < 0: none
  float scale, softcap;                            // softcap 0: none
  int causal, alibi, bias, biasBatch1, biasHead1;
};

__device__ float load(const __half *p, long long i) { return __half2float(p[i]); }
__device__ float load(const __nv_bfloat16 *p, long long i) { return __bfloat162float(p[i]); }
__device__ float load(const float *p, long long i) { return p[i]; }
__device__ float roundTo(const __half *, float x) { return __half2float(__float2half_rn(x)); }
__device__ float roundTo(const __nv_bfloat16 *, float x) { return __bfloat162float(__float2bfloat16_rn(x)); }
__device__ float roundTo(const float *, float x) { return x; }

// lens (a paged cache, else null: Sk): sequence b has lens[b] keys, and the
// diagonal is aligned to that length.
template <typename T>
__device__ float score(const T *q, const T *k, const T *bias, const int *lens, const RefParams &p,
                       long long b, long long h, long long i, long long j) {
  long long len = lens ? (long long)lens[b] : p.Sk;
  if (j >= len) return __int_as_float(0xff800000);
  long long dist = i + (len - p.Sq) - j; // distance below the bottom-right aligned diagonal
  if (p.causal && dist < 0) return __int_as_float(0xff800000);
  if (p.window >= 0 && (dist > p.window || (!p.causal && dist < -p.window)))
    return __int_as_float(0xff800000);
  long long hk = h / (p.Hq / p.Hkv);
  const long long qRow = ((b * p.Hq + h) * p.Sq + i) * p.D, kRow = ((b * p.Hkv + hk) * p.Sk + j) * p.D;
  float dot = 0.f;
  for (long long d = 0; d < p.D; ++d)
    dot += load(q, qRow + d) * load(k, kRow + d);
  float s = p.scale * dot;
  if (p.softcap > 0.f) s = p.softcap * tanhf(s / p.softcap);
  if (p.alibi) s -= exp2f(-8.f * float(h + 1) / float(p.Hq)) * fabsf(float(dist));
  if (p.bias) {
    long long bb = p.biasBatch1 ? 0 : b, hb = p.biasHead1 ? 0 : h, Hb = p.biasHead1 ? 1 : p.Hq;
    s += load(bias, ((bb * Hb + hb) * p.Sq + i) * p.Sk + j);
  }
  return s;
}

template <typename T>
__global__ void reference_attention(const T *q, const T *k, const T *v, const T *bias, const int *lens,
                                    RefParams p, float *ref, float *lowp, double *refLse, float *lowpLse) {
  long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= p.B * p.Hq * p.Sq) return;
  long long i = row % p.Sq, h = (row / p.Sq) % p.Hq, b = row / (p.Sq * p.Hq);
  long long hk = h / (p.Hq / p.Hkv);
  float *oRef = ref + row * p.D, *oLow = lowp + row * p.D;
  for (long long d = 0; d < p.D; ++d) { oRef[d] = 0.f; oLow[d] = 0.f; }
  float m = __int_as_float(0xff800000);
  refLse[row] = __longlong_as_double(0xfff0000000000000ULL);
  lowpLse[row] = m;
  for (long long j = 0; j < p.Sk; ++j) m = fmaxf(m, score(q, k, bias, lens, p, b, h, i, j));
  if (m == __int_as_float(0xff800000)) return; // fully masked: 0, lse = -inf
  float l = 0.f;
  double l64 = 0.0;
  for (long long j = 0; j < p.Sk; ++j) {
    float s = score(q, k, bias, lens, p, b, h, i, j);
    l += expf(s - m);
    l64 += exp((double)s - (double)m);
  }
  refLse[row] = (double)m + log(l64);
  lowpLse[row] = m + logf(l);
  for (long long j = 0; j < p.Sk; ++j) {
    float e = expf(score(q, k, bias, lens, p, b, h, i, j) - m);
    if (e == 0.f) continue;
    float pl = roundTo(q, e / l);
    const long long vRow = ((b * p.Hkv + hk) * p.Sk + j) * p.D;
    for (long long d = 0; d < p.D; ++d) {
      float x = load(v, vRow + d);
      oRef[d] += e * x;
      oLow[d] += pl * x;
    }
  }
  for (long long d = 0; d < p.D; ++d) { oRef[d] /= l; oLow[d] = roundTo(q, oLow[d]); }
}
)CUDA";

struct RefParams {
  long long B, Hq, Hkv, Sq, Sk, D, window;
  float scale, softcap;
  int causal, alibi, bias, biasBatch1, biasHead1;
};

const char *typeName(DType t) {
  return t == DType::F16 ? "__half" : t == DType::BF16 ? "__nv_bfloat16" : "float";
}

} // namespace

const char *gpuReferenceSource() { return kSource; }

bool gpuReference(driver::Driver &drv, const Problem &p, const std::string &arch,
                  const driver::DeviceBuffer &q, const driver::DeviceBuffer &k,
                  const driver::DeviceBuffer &v, const driver::DeviceBuffer *bias,
                  const driver::DeviceBuffer *lens, std::vector<double> &ref, std::vector<double> &lowp, std::vector<double> &refLse,
                  std::vector<double> &lowpLse, std::string &err) {
  if (p.kind != ProblemKind::Attention) {
    err = "the GPU reference computes attention only";
    return false;
  }
  std::string name = std::string("reference_attention<") + typeName(p.dtype) + ">";
  nvrtc::CompileOptions opts;
  opts.arch = arch;
  nvrtc::CubinCache cache(nvrtc::CubinCache::defaultDir());
  std::optional<nvrtc::CompiledKernel> kernel = nvrtc::compileCached(&cache, kSource, name, opts, err);
  if (!kernel)
    return false;
  std::optional<driver::Module> mod = drv.loadModule(kernel->cubin, err);
  if (!mod)
    return false;
  std::optional<driver::Function> fn = mod->function(kernel->loweredName, err);
  if (!fn)
    return false;
  long long rows = p.batch.value * p.heads_q * p.seq_q.value;
  size_t count = size_t(rows * p.head_dim);
  std::optional<driver::DeviceBuffer> dRef = drv.alloc(count * sizeof(float), err);
  std::optional<driver::DeviceBuffer> dLow = dRef ? drv.alloc(count * sizeof(float), err) : std::nullopt;
  std::optional<driver::DeviceBuffer> dRefLse = dLow ? drv.alloc(size_t(rows) * sizeof(double), err) : std::nullopt;
  std::optional<driver::DeviceBuffer> dLowLse = dRefLse ? drv.alloc(size_t(rows) * sizeof(float), err) : std::nullopt;
  if (!dRef || !dLow || !dRefLse || !dLowLse)
    return false;
  RefParams rp{p.batch.value, p.heads_q, p.heads_kv, p.seq_q.value, p.seq_k.value, p.head_dim,
               p.window ? *p.window : -1,
               float(p.effectiveScale()), p.softcap ? float(*p.softcap) : 0.f,
               p.causal, p.alibi, p.bias, p.bias_batch_broadcast, p.bias_head_broadcast};
  driver::KernelArgs args;
  args.add(q).add(k).add(v).add(bias ? bias->ptr() : CUdeviceptr(0)).add(lens ? lens->ptr() : CUdeviceptr(0))
      .add(rp).add(*dRef).add(*dLow)
      .add(*dRefLse).add(*dLowLse);
  unsigned threads = 128;
  if (!drv.launch(*fn, {unsigned((rows + threads - 1) / threads), 1, 1}, {threads, 1, 1}, 0, args, err) ||
      !drv.synchronize(err))
    return false;
  std::optional<std::vector<double>> r = dRef->download(DType::F32, count, err);
  std::optional<std::vector<double>> l = r ? dLow->download(DType::F32, count, err) : std::nullopt;
  std::optional<std::vector<double>> rl;
  if (l) {
    rl.emplace(size_t(rows));
    if (!dRefLse->download(rl->data(), size_t(rows) * sizeof(double), err))
      rl.reset();
  }
  std::optional<std::vector<double>> ll = rl ? dLowLse->download(DType::F32, size_t(rows), err) : std::nullopt;
  if (!r || !l || !rl || !ll)
    return false;
  ref = std::move(*r);
  lowp = std::move(*l);
  refLse = std::move(*rl);
  lowpLse = std::move(*ll);
  return true;
}

} // namespace attncc::bundle
