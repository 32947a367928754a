// The fast kernels in front of the portable table: one line per op, sorted by name.
#include "runtime/kernels/dsp/registrations.h"

namespace arenaplan::rt {

namespace {

using B = tfl::BuiltinOperator;
constexpr int32_t Code(B b) { return static_cast<int32_t>(b); }

const OpResolverEntry kDspOps[] = {
    {Code(B::ADD), nullptr, &Register_ADD_DSP},
    {Code(B::AVERAGE_POOL_2D), nullptr, &Register_AVERAGE_POOL_2D_DSP},
    {Code(B::CONV_2D), nullptr, &Register_CONV_2D_DSP},
    {Code(B::DEPTHWISE_CONV_2D), nullptr, &Register_DEPTHWISE_CONV_2D_DSP},
    {Code(B::FULLY_CONNECTED), nullptr, &Register_FULLY_CONNECTED_DSP},
    {Code(B::MAX_POOL_2D), nullptr, &Register_MAX_POOL_2D_DSP},
    {Code(B::MUL), nullptr, &Register_MUL_DSP},
    {Code(B::SOFTMAX), nullptr, &Register_SOFTMAX_DSP},
    {Code(B::SUB), nullptr, &Register_SUB_DSP},
};

const OpResolver kDspOpsResolver{kDspOps, sizeof(kDspOps) / sizeof(kDspOps[0]), &AllOpsResolver};

}  // namespace

const OpResolver& DspOpsResolver() { return kDspOpsResolver; }

const OpResolver& TargetOpsResolver() { return ARENAPLAN_DSP_KERNELS ? DspOpsResolver() : AllOpsResolver(); }

}  // namespace arenaplan::rt
