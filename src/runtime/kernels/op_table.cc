// The single table of every kernel: builtin code (or custom name) -> registration.
// Kernel authors: add one line per op, sorted by name; touch no other line.
#include "runtime/kernels/registrations.h"
#include "runtime/op_resolver.h"

namespace arenaplan::rt {

namespace {

using B = tfl::BuiltinOperator;
constexpr int32_t Code(B b) { return static_cast<int32_t>(b); }

const OpResolverEntry kAllOps[] = {
    {Code(B::ADD), nullptr, &Register_ADD},
    {Code(B::DEQUANTIZE), nullptr, &Register_DEQUANTIZE},
    {Code(B::QUANTIZE), nullptr, &Register_QUANTIZE},
    {Code(B::RESHAPE), nullptr, &Register_RESHAPE},
    {Code(B::SVDF), nullptr, &Register_SVDF},
    {Code(B::UNIDIRECTIONAL_SEQUENCE_LSTM), nullptr, &Register_UNIDIRECTIONAL_SEQUENCE_LSTM},
};

const OpResolver kAllOpsResolver{kAllOps, sizeof(kAllOps) / sizeof(kAllOps[0])};

}  // namespace

const OpResolver& AllOpsResolver() { return kAllOpsResolver; }

}  // namespace arenaplan::rt
