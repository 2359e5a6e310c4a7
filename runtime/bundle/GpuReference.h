//===- GpuReference.h - naive fp32 attention on the GPU, for checking -----===//
//
// For problems too large for the float64 reference on the CPU: a deliberately
// naive kernel (one thread per query row, three passes over the keys, fp32)
// that computes both the reference and the low-precision analogue of the
// tolerance rule (P rounded to the dtype before P.V, output rounded to the
// dtype). It is the oracle, written by hand and independent of the compiler;
// it is not compiler output.
//
// The log-sum-exp: the reference sums exp(s - m) in double (as the float64
// reference does), the low-precision analogue in float, one key after the
// other (as referenceLowp does). Scores are fp32 in both. `attncc-runner
// --compare-references` holds this reference to the tolerance rule against
// the float64 one on shapes both can do.
//
//===----------------------------------------------------------------------===//
#ifndef ATTNCC_RUNTIME_GPUREFERENCE_H
#define ATTNCC_RUNTIME_GPUREFERENCE_H

#include "runtime/driver/Driver.h"
#include "runtime/problem/Problem.h"

#include <string>
#include <vector>

namespace attncc::bundle {

/// Attention only. q, k, v (and bias when the problem has one) are device
/// buffers in the problem's layout and dtype; a paged problem passes its
/// logical K and V ([B, Hkv, seq_k, D]) and `lens`, its kv_lens (int32 [B]),
/// else null. Fills `ref` and `lowp` (O, as
/// doubles) and `refLse` and `lowpLse` (-inf for a fully masked row). `arch`
/// is the device's NVRTC arch.
bool gpuReference(driver::Driver &drv, const Problem &p, const std::string &arch,
                  const driver::DeviceBuffer &q, const driver::DeviceBuffer &k,
                  const driver::DeviceBuffer &v, const driver::DeviceBuffer *bias,
                  const driver::DeviceBuffer *lens, std::vector<double> &ref, std::vector<double> &lowp, std::vector<double> &refLse,
                  std::vector<double> &lowpLse, std::string &err);

/// The CUDA source of the reference kernel (for tests).
const char *gpuReferenceSource();

} // namespace attncc::bundle

#endif
