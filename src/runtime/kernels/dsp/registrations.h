// The fast int8 kernels (kernels/dsp/): one registration per op, defined in the op's file here and
// listed once in dsp/op_table.cc. Each keeps the portable kernel's prepare checks and op data and
// runs the portable eval for every case it does not speed up, so swapping it in never changes
// what a model computes or which models run.
#pragma once

#include "runtime/kernel_api.h"
#include "runtime/op_resolver.h"

// 1 when the build target has the DSP extension: firmware resolvers then pick these kernels.
#if defined(__ARM_FEATURE_DSP)
#define ARENAPLAN_DSP_KERNELS 1
#else
#define ARENAPLAN_DSP_KERNELS 0
#endif

namespace arenaplan::rt {

const KernelRegistration* Register_ADD_DSP();                // kernels/dsp/add_mul.cc
const KernelRegistration* Register_AVERAGE_POOL_2D_DSP();    // kernels/dsp/pooling.cc
const KernelRegistration* Register_CONV_2D_DSP();            // kernels/dsp/conv.cc
const KernelRegistration* Register_DEPTHWISE_CONV_2D_DSP();  // kernels/dsp/depthwise_conv.cc
const KernelRegistration* Register_FULLY_CONNECTED_DSP();    // kernels/dsp/fully_connected.cc
const KernelRegistration* Register_MAX_POOL_2D_DSP();        // kernels/dsp/pooling.cc
const KernelRegistration* Register_MUL_DSP();                // kernels/dsp/add_mul.cc
const KernelRegistration* Register_SOFTMAX_DSP();            // kernels/dsp/softmax.cc
const KernelRegistration* Register_SUB_DSP();                // kernels/dsp/add_mul.cc

// Every kernel, with the fast int8 ones in front (the same ops as AllOpsResolver()). Runs on any
// target: without the DSP extension its instructions are emulated exactly (tests, `run --kernels dsp`).
const OpResolver& DspOpsResolver();
// What a build for this target should use: DspOpsResolver() with the DSP extension, else
// AllOpsResolver().
const OpResolver& TargetOpsResolver();

}  // namespace arenaplan::rt

// Defines Register_<OP>_DSP() returning the constant registration {"OP", prepare, eval[, reset]}.
#define RT_REGISTER_DSP_KERNEL(OP, ...)                                  \
  const KernelRegistration* Register_##OP##_DSP() {                      \
    static constexpr KernelRegistration kRegistration{#OP, __VA_ARGS__}; \
    return &kRegistration;                                               \
  }
