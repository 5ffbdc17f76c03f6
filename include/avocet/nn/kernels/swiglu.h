// SwiGLU's gate (the transformer's MLP, nn/transformer.h), in place over one row of n floats:
//   gate[i] = silu(gate[i]) * up[i] = gate[i] / (1 + e^-gate[i]) * up[i].
// swiglu_reference is Eigen's (every CPU; fp32 runs it, so fp32 keeps its values bit for bit);
// swiglu_avx2 fuses it in one pass with avx2::exp (relative error ~3e-7 against the reference),
// and the reduced precisions run it where the CPU has AVX2. A test compares them.
#pragma once

namespace avocet::nn {

void swiglu_reference(float* gate, const float* up, int n);
void swiglu_avx2(float* gate, const float* up, int n);
bool swiglu_avx2_supported();

}  // namespace avocet::nn
