// The single table of every kernel: builtin code (or custom name) -> registration.
// Kernel authors: add one line per op, sorted by name; touch no other line.
#include "runtime/kernels/registrations.h"
#include "runtime/op_resolver.h"

namespace arenaplan::rt {

namespace {

using B = tfl::BuiltinOperator;
constexpr int32_t Code(B b) { return static_cast<int32_t>(b); }

const OpResolverEntry kAllOps[] = {
    {Code(B::ABS), nullptr, &Register_ABS},
    {Code(B::ADD), nullptr, &Register_ADD},
    {Code(B::ARG_MAX), nullptr, &Register_ARG_MAX},
    {Code(B::ARG_MIN), nullptr, &Register_ARG_MIN},
    {Code(B::ASSIGN_VARIABLE), nullptr, &Register_ASSIGN_VARIABLE},
    {Code(B::AVERAGE_POOL_2D), nullptr, &Register_AVERAGE_POOL_2D},
    {Code(B::BATCH_TO_SPACE_ND), nullptr, &Register_BATCH_TO_SPACE_ND},
    {Code(B::CALL_ONCE), nullptr, &Register_CALL_ONCE},
    {Code(B::CAST), nullptr, &Register_CAST},
    {Code(B::CEIL), nullptr, &Register_CEIL},
    {Code(B::CONCATENATION), nullptr, &Register_CONCATENATION},
    {Code(B::CONV_2D), nullptr, &Register_CONV_2D},
    {Code(B::COS), nullptr, &Register_COS},
    {Code(B::CUSTOM), "SignalEnergy", &Register_SIGNAL_ENERGY},
    {Code(B::CUSTOM), "SignalFftAutoScale", &Register_SIGNAL_FFT_AUTO_SCALE},
    {Code(B::CUSTOM), "SignalFilterBank", &Register_SIGNAL_FILTER_BANK},
    {Code(B::CUSTOM), "SignalFilterBankLog", &Register_SIGNAL_FILTER_BANK_LOG},
    {Code(B::CUSTOM), "SignalFilterBankSpectralSubtraction", &Register_SIGNAL_FILTER_BANK_SPECTRAL_SUBTRACTION},
    {Code(B::CUSTOM), "SignalFilterBankSquareRoot", &Register_SIGNAL_FILTER_BANK_SQUARE_ROOT},
    {Code(B::CUSTOM), "SignalPCAN", &Register_SIGNAL_PCAN},
    {Code(B::CUSTOM), "SignalRfft", &Register_SIGNAL_RFFT},
    {Code(B::CUSTOM), "SignalWindow", &Register_SIGNAL_WINDOW},
    {Code(B::DEPTHWISE_CONV_2D), nullptr, &Register_DEPTHWISE_CONV_2D},
    {Code(B::DEQUANTIZE), nullptr, &Register_DEQUANTIZE},
    {Code(B::DIV), nullptr, &Register_DIV},
    {Code(B::EQUAL), nullptr, &Register_EQUAL},
    {Code(B::EXP), nullptr, &Register_EXP},
    {Code(B::EXPAND_DIMS), nullptr, &Register_EXPAND_DIMS},
    {Code(B::FILL), nullptr, &Register_FILL},
    {Code(B::FLOOR), nullptr, &Register_FLOOR},
    {Code(B::FLOOR_DIV), nullptr, &Register_FLOOR_DIV},
    {Code(B::FLOOR_MOD), nullptr, &Register_FLOOR_MOD},
    {Code(B::FULLY_CONNECTED), nullptr, &Register_FULLY_CONNECTED},
    {Code(B::GATHER), nullptr, &Register_GATHER},
    {Code(B::GATHER_ND), nullptr, &Register_GATHER_ND},
    {Code(B::GREATER), nullptr, &Register_GREATER},
    {Code(B::GREATER_EQUAL), nullptr, &Register_GREATER_EQUAL},
    {Code(B::IF), nullptr, &Register_IF},
    {Code(B::LEAKY_RELU), nullptr, &Register_LEAKY_RELU},
    {Code(B::LESS), nullptr, &Register_LESS},
    {Code(B::LESS_EQUAL), nullptr, &Register_LESS_EQUAL},
    {Code(B::LOG), nullptr, &Register_LOG},
    {Code(B::LOGICAL_NOT), nullptr, &Register_LOGICAL_NOT},
    {Code(B::LOGISTIC), nullptr, &Register_LOGISTIC},
    {Code(B::MAXIMUM), nullptr, &Register_MAXIMUM},
    {Code(B::MAX_POOL_2D), nullptr, &Register_MAX_POOL_2D},
    {Code(B::MEAN), nullptr, &Register_MEAN},
    {Code(B::MINIMUM), nullptr, &Register_MINIMUM},
    {Code(B::MUL), nullptr, &Register_MUL},
    {Code(B::NEG), nullptr, &Register_NEG},
    {Code(B::NOT_EQUAL), nullptr, &Register_NOT_EQUAL},
    {Code(B::PACK), nullptr, &Register_PACK},
    {Code(B::PAD), nullptr, &Register_PAD},
    {Code(B::PADV2), nullptr, &Register_PADV2},
    {Code(B::PRELU), nullptr, &Register_PRELU},
    {Code(B::QUANTIZE), nullptr, &Register_QUANTIZE},
    {Code(B::READ_VARIABLE), nullptr, &Register_READ_VARIABLE},
    {Code(B::REDUCE_MAX), nullptr, &Register_REDUCE_MAX},
    {Code(B::RELU), nullptr, &Register_RELU},
    {Code(B::RELU6), nullptr, &Register_RELU6},
    {Code(B::RESHAPE), nullptr, &Register_RESHAPE},
    {Code(B::RESIZE_NEAREST_NEIGHBOR), nullptr, &Register_RESIZE_NEAREST_NEIGHBOR},
    {Code(B::REVERSE_V2), nullptr, &Register_REVERSE_V2},
    {Code(B::ROUND), nullptr, &Register_ROUND},
    {Code(B::RSQRT), nullptr, &Register_RSQRT},
    {Code(B::SHAPE), nullptr, &Register_SHAPE},
    {Code(B::SIN), nullptr, &Register_SIN},
    {Code(B::SOFTMAX), nullptr, &Register_SOFTMAX},
    {Code(B::SPACE_TO_BATCH_ND), nullptr, &Register_SPACE_TO_BATCH_ND},
    {Code(B::SPLIT), nullptr, &Register_SPLIT},
    {Code(B::SPLIT_V), nullptr, &Register_SPLIT_V},
    {Code(B::SQRT), nullptr, &Register_SQRT},
    {Code(B::SQUARE), nullptr, &Register_SQUARE},
    {Code(B::SQUARED_DIFFERENCE), nullptr, &Register_SQUARED_DIFFERENCE},
    {Code(B::SQUEEZE), nullptr, &Register_SQUEEZE},
    {Code(B::STRIDED_SLICE), nullptr, &Register_STRIDED_SLICE},
    {Code(B::SUB), nullptr, &Register_SUB},
    {Code(B::SUM), nullptr, &Register_SUM},
    {Code(B::SVDF), nullptr, &Register_SVDF},
    {Code(B::TANH), nullptr, &Register_TANH},
    {Code(B::TRANSPOSE), nullptr, &Register_TRANSPOSE},
    {Code(B::TRANSPOSE_CONV), nullptr, &Register_TRANSPOSE_CONV},
    {Code(B::UNIDIRECTIONAL_SEQUENCE_LSTM), nullptr, &Register_UNIDIRECTIONAL_SEQUENCE_LSTM},
    {Code(B::UNPACK), nullptr, &Register_UNPACK},
    {Code(B::VAR_HANDLE), nullptr, &Register_VAR_HANDLE},
    {Code(B::WHILE), nullptr, &Register_WHILE},
    {Code(B::ZEROS_LIKE), nullptr, &Register_ZEROS_LIKE},
};

const OpResolver kAllOpsResolver{kAllOps, sizeof(kAllOps) / sizeof(kAllOps[0])};

}  // namespace

const OpResolver& AllOpsResolver() { return kAllOpsResolver; }

}  // namespace arenaplan::rt
