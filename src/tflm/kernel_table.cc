// The kernel table: data only. Columns per ABI: {x86-64, arm32, cortex-m}. Option structs are
// TFLM's builtin param structs (builtin_op_data.h): with short enums every enum shrinks to a byte.
// init_bytes is sizeof(OpData) each kernel's Init allocates, from the member types in TFLM's
// kernels (pointers 8/4, int enums 4, short enums 1). tests/tflm checks all of them against the
// golden data, in two alignment phases (plain and recording interpreter).
#include "tflm/kernels.h"

namespace arenaplan::tflm {

namespace {
using P = PrepareRule;
using InitRule = ::arenaplan::tflm::InitRule;
using S = ScratchRule;
using Ty = TypeRule;
}  // namespace

const std::vector<KernelEntry>& KernelTable() {
  static const std::vector<KernelEntry> kTable = {
      // op, options size {x86, arm32, cm}, options align, init OpData bytes, prepare, scratch, types
      {"ADD", {8, 8, 2}, {4, 4, 1}, {60, 60, 60}, P::kNone, S::kNone, Ty::kNone,
       "TfLiteAddParams; OpDataAdd (bool + 14 int32)"},
      {"SUB", {8, 8, 2}, {4, 4, 1}, {52, 52, 52}, P::kNone, S::kNone, Ty::kNone,
       "TfLiteSubParams; OpDataSub (bool + 12 int32)"},
      {"MUL", {4, 4, 1}, {4, 4, 1}, {48, 48, 48}, P::kNone, S::kNone, Ty::kNone, "TfLiteMulParams; OpDataMul"},
      {"DIV", {4, 4, 1}, {4, 4, 1}, {32, 32, 32}, P::kNone, S::kNone, Ty::kNone, "TfLiteDivParams; OpDataDiv"},
      {"CONV_2D", {28, 28, 28}, {4, 4, 4}, {72, 56, 56}, P::kPerChannelFilterDim0, S::kInt4FilterUnpack, Ty::kConvInputFilter,
       "TfLiteConvParams; OpDataConv + per-channel multiplier/shift"},
      {"DEPTHWISE_CONV_2D", {28, 28, 28}, {4, 4, 4}, {72, 56, 56}, P::kPerChannelFilterDim3, S::kInt4FilterUnpack, Ty::kNone,
       "TfLiteDepthwiseConvParams; OpDataConv + per-channel multiplier/shift"},
      {"TRANSPOSE_CONV", {20, 20, 20}, {4, 4, 4}, {80, 80, 80}, P::kPerChannelFilterDim0, S::kTransposeConv,
       Ty::kNone, "TfLiteTransposeConvParams; OpData + per-channel arrays + accumulator scratch"},
      {"FULLY_CONNECTED", {16, 16, 5}, {4, 4, 1}, {64, 48, 48}, P::kPerChannelIfMultiScale, S::kInt4FilterUnpack, Ty::kFcInputFilter,
       "TfLiteFullyConnectedParams; OpDataFullyConnected (9 int32, 2 pointers, bool)"},
      {"AVERAGE_POOL_2D", {40, 40, 40}, {4, 4, 4}, {32, 32, 32}, P::kNone, S::kNone, Ty::kNone,
       "TfLitePoolParams; OpDataPooling"},
      {"MAX_POOL_2D", {40, 40, 40}, {4, 4, 4}, {32, 32, 32}, P::kNone, S::kNone, Ty::kNone,
       "TfLitePoolParams; OpDataPooling"},
      {"SOFTMAX", {4, 4, 4}, {4, 4, 4}, {80, 56, 56}, P::kSoftmaxInt16Luts, S::kNone, Ty::kNone,
       "TfLiteSoftmaxParams; SoftmaxParams (+ int16 LUTs)"},
      {"RESHAPE", {36, 36, 36}, {4, 4, 4}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, "TfLiteReshapeParams"},
      {"SQUEEZE", {36, 36, 36}, {4, 4, 4}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, "TfLiteSqueezeParams"},
      {"EXPAND_DIMS", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, ""},
      {"TRANSPOSE", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, ""},
      {"QUANTIZE", {0, 0, 0}, {1, 1, 1}, {32, 32, 32}, P::kNone, S::kNone, Ty::kNone, "OpDataQuantizeReference"},
      {"DEQUANTIZE", {0, 0, 0}, {1, 1, 1}, {32, 32, 32}, P::kNone, S::kNone, Ty::kNone, "DequantizeOpData"},
      {"LEAKY_RELU", {4, 4, 4}, {4, 4, 4}, {24, 24, 24}, P::kNone, S::kNone, Ty::kNone,
       "TfLiteLeakyReluParams; LeakyReluOpData"},
      {"RELU", {0, 0, 0}, {1, 1, 1}, {32, 32, 32}, P::kNone, S::kNone, Ty::kNone, "ReluOpData"},
      {"LOGISTIC", {0, 0, 0}, {1, 1, 1}, {16, 16, 16}, P::kNone, S::kNone, Ty::kNone, "OpDataLogistic"},
      {"PAD", {0, 0, 0}, {1, 1, 1}, {56, 56, 56}, P::kNone, S::kNone, Ty::kNone, "OpData {PadParams (52), int32 output_zero_point}"},
      {"STRIDED_SLICE", {24, 24, 24}, {4, 4, 4}, {84, 84, 84}, P::kNone, S::kNone, Ty::kNone,
       "TfLiteStridedSliceParams; StridedSliceParams"},
      {"CONCATENATION", {8, 8, 8}, {4, 4, 4}, {40, 24, 24}, P::kNone, S::kNone, Ty::kConcatTypes,
       "TfLiteConcatenationParams; OpData"},
      // OpDataReduce: 11 int32-sized fields. Besides the 10 of older TFLM (multiplier ... num_axis)
      // it keeps a third scratch index, because MEAN now requests int[rank] as well as int[axes]
      // (golden plans: two scratch rows for a float MEAN, three for int8).
      {"MEAN", {1, 1, 1}, {1, 1, 1}, {44, 44, 44}, P::kNone, S::kMean, Ty::kNone, "TfLiteReducerParams; OpDataReduce"},
      {"RESIZE_NEAREST_NEIGHBOR", {2, 2, 2}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone,
       "TfLiteResizeNearestNeighborParams"},
      {"RESIZE_BILINEAR", {2, 2, 2}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, "TfLiteResizeBilinearParams"},
      // GATHER / GATHER_ND: no Init (RegisterOp(nullptr, ...)); Prepare moves the output dims
      // out of the flatbuffer (CreateWritableTensorDimsWithCopy).
      {"GATHER", {8, 8, 8}, {4, 4, 4}, {0, 0, 0}, P::kOutputDimsCopy, S::kNone, Ty::kNone,
       "TfLiteGatherParams; output dims copy"},
      {"GATHER_ND", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kOutputDimsCopy, S::kNone, Ty::kNone, "output dims copy"},
      {"SHAPE", {4, 4, 1}, {4, 4, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, "TfLiteShapeParams"},
      {"PACK", {8, 8, 8}, {4, 4, 4}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, "TfLitePackParams"},
      {"UNPACK", {8, 8, 8}, {4, 4, 4}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, "TfLiteUnpackParams"},
      {"WHILE", {8, 8, 8}, {4, 4, 4}, {8, 8, 8}, P::kNone, S::kNone, Ty::kNone,
       "TfLiteWhileParams; OpData {cond, body subgraph index}"},
      {"CALL_ONCE", {4, 4, 4}, {4, 4, 4}, {8, 8, 8}, P::kNone, S::kNone, Ty::kNone, "TfLiteCallOnceParams; OpData"},
      {"VAR_HANDLE", {16, 8, 8}, {8, 4, 4}, {8, 8, 8}, P::kNone, S::kNone, Ty::kNone, "TfLiteVarHandleParams; OpData"},
      {"READ_VARIABLE", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, ""},
      {"ASSIGN_VARIABLE", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, ""},
      // Comparisons: Init allocates OpData {ComparisonParams}: 7 int32 + bool = 32 B on every ABI.
      {"LESS", {0, 0, 0}, {1, 1, 1}, {32, 32, 32}, P::kNone, S::kNone, Ty::kNone, "ComparisonParams"},
      {"LESS_EQUAL", {0, 0, 0}, {1, 1, 1}, {32, 32, 32}, P::kNone, S::kNone, Ty::kNone, "ComparisonParams"},
      {"GREATER", {0, 0, 0}, {1, 1, 1}, {32, 32, 32}, P::kNone, S::kNone, Ty::kNone, "ComparisonParams"},
      {"GREATER_EQUAL", {0, 0, 0}, {1, 1, 1}, {32, 32, 32}, P::kNone, S::kNone, Ty::kNone, "ComparisonParams"},
      {"EQUAL", {0, 0, 0}, {1, 1, 1}, {32, 32, 32}, P::kNone, S::kNone, Ty::kNone, "ComparisonParams"},
      {"NOT_EQUAL", {0, 0, 0}, {1, 1, 1}, {32, 32, 32}, P::kNone, S::kNone, Ty::kNone, "ComparisonParams"},
      {"SVDF", {12, 12, 8}, {4, 4, 4}, {36, 36, 36}, P::kNone, S::kSvdf, Ty::kNone, "TfLiteSVDFParams; OpDataSvdf (9 int32)"},
      {"UNIDIRECTIONAL_SEQUENCE_LSTM", {16, 16, 16}, {4, 4, 4}, {688, 688, 688}, P::kNone, S::kLstm, Ty::kNone,
       "TfLiteUnidirectionalSequenceLSTMParams; OpDataLSTM: LstmSizeInfo 20, CellStateInfo 12, activation enum, "
       "4 GateParameters (2 FullyConnectedParams of 40), InterGateParameters (3 ArithmeticParams of 104, 8-aligned), "
       "int[4]"},
      {"CAST", {8, 8, 2}, {4, 4, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kCastInput, "TfLiteCastParams"},
      {"SPACE_TO_BATCH_ND", {0, 0, 0}, {1, 1, 1}, {4, 4, 4}, P::kNone, S::kNone, Ty::kNone, "SpaceToBatchParams"},
      {"BATCH_TO_SPACE_ND", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, "no Init"},
      {"FLOOR_MOD", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kFloatOnlyAtInvoke, ""},
      {"FLOOR_DIV", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kFloatOnlyAtInvoke, ""},
      {"ARG_MAX", {4, 4, 1}, {4, 4, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, "TfLiteArgMaxParams"},
      {"SQRT", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, ""},
      {"MAXIMUM", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, ""},
      {"MINIMUM", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, ""},
      {"FILL", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kFillConstantDims, ""},
      {"SPLIT", {4, 4, 4}, {4, 4, 4}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, "TfLiteSplitParams"},
      {"TANH", {0, 0, 0}, {1, 1, 1}, {32, 32, 32}, P::kNone, S::kNone, Ty::kNone, "OpDataTanh"},
      // The Ethos-U op exists only in Ethos-U builds; the golden run used a no-op stub.
      {"CUSTOM:ethos-u", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, "no-op stub"},
      // Signal library (audio front end) custom ops: Init allocates a params struct, plus state.
      {"CUSTOM:SignalWindow", {0, 0, 0}, {1, 1, 1}, {8, 8, 8}, P::kNone, S::kNone, Ty::kNone,
       "TFLMSignalWindowParams"},
      {"CUSTOM:SignalFftAutoScale", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, ""},
      {"CUSTOM:SignalRfft", {0, 0, 0}, {1, 1, 1}, {48, 32, 32}, P::kNone, S::kRfft, Ty::kNone,
       "TfLiteAudioFrontendRfftParams + KISS FFT state; work area scratch", InitRule::kRfftState},
      {"CUSTOM:SignalEnergy", {0, 0, 0}, {1, 1, 1}, {8, 8, 8}, P::kNone, S::kNone, Ty::kNone, "energy params"},
      {"CUSTOM:SignalFilterBank", {0, 0, 0}, {1, 1, 1}, {64, 36, 36}, P::kNone, S::kNone, Ty::kNone,
       "TFLMSignalFilterBankParams + uint64 work area", InitRule::kFilterBankWorkArea},
      {"CUSTOM:SignalFilterBankSquareRoot", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, ""},
      {"CUSTOM:SignalFilterBankSpectralSubtraction", {0, 0, 0}, {1, 1, 1}, {56, 44, 44}, P::kNone, S::kNone,
       Ty::kNone, "TFLMSignalSpectralSubtractionParams + noise estimate", InitRule::kSpectralSubtractionNoise},
      {"CUSTOM:SignalPCAN", {0, 0, 0}, {1, 1, 1}, {4, 4, 4}, P::kNone, S::kNone, Ty::kNone, "pcan params"},
      {"CUSTOM:SignalFilterBankLog", {0, 0, 0}, {1, 1, 1}, {8, 8, 8}, P::kNone, S::kNone, Ty::kNone,
       "filter bank log params"},
  };
  return kTable;
}

}  // namespace arenaplan::tflm

namespace arenaplan::tflm {

const std::vector<std::string>& TflmRegisteredOps() {
  // MicroMutableOpResolver with every Add*() TFLM offers (golden/tflm-x86_64/README.md).
  static const std::vector<std::string> kOps = {
      "ABS", "ADD", "ADD_N", "ARG_MAX", "ARG_MIN", "ASSIGN_VARIABLE", "AVERAGE_POOL_2D", "BATCH_MATMUL",
      "BATCH_TO_SPACE_ND", "BROADCAST_ARGS", "BROADCAST_TO", "CALL_ONCE", "CAST", "CEIL", "CONCATENATION",
      "CONV_2D", "COS", "CUMSUM", "DEPTH_TO_SPACE", "DEPTHWISE_CONV_2D", "DEQUANTIZE", "DIV", "ELU",
      "EMBEDDING_LOOKUP", "EQUAL", "EXP", "EXPAND_DIMS", "FILL", "FLOOR", "FLOOR_DIV", "FLOOR_MOD",
      "FULLY_CONNECTED", "GATHER", "GATHER_ND", "GREATER", "GREATER_EQUAL", "HARD_SWISH", "IF",
      "L2_NORMALIZATION", "L2_POOL_2D", "LEAKY_RELU", "LESS", "LESS_EQUAL", "LOG", "LOG_SOFTMAX", "LOGICAL_AND",
      "LOGICAL_NOT", "LOGICAL_OR", "LOGISTIC", "MAX_POOL_2D", "MAXIMUM", "MEAN", "MINIMUM", "MIRROR_PAD", "MUL",
      "NEG", "NOT_EQUAL", "PACK", "PAD", "PADV2", "PRELU", "QUANTIZE", "READ_VARIABLE", "REDUCE_MAX", "REDUCE_MIN",
      "RELU", "RELU6", "RESHAPE", "RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR", "REVERSE_V2", "ROUND", "RSQRT",
      "SELECT_V2", "SHAPE", "SIN", "SLICE", "SOFTMAX", "SPACE_TO_BATCH_ND", "SPACE_TO_DEPTH", "SPLIT", "SPLIT_V",
      "SQRT", "SQUARE", "SQUARED_DIFFERENCE", "SQUEEZE", "STRIDED_SLICE", "SUB", "SUM", "SVDF", "TANH",
      "TRANSPOSE", "TRANSPOSE_CONV", "UNIDIRECTIONAL_SEQUENCE_LSTM", "UNPACK", "VAR_HANDLE", "WHILE",
      "ZEROS_LIKE", "CUSTOM:TFLite_Detection_PostProcess", "CUSTOM:SignalWindow", "CUSTOM:SignalFftAutoScale",
      "CUSTOM:SignalRfft", "CUSTOM:SignalIrfft", "CUSTOM:SignalEnergy", "CUSTOM:SignalFilterBank",
      "CUSTOM:SignalFilterBankSquareRoot", "CUSTOM:SignalFilterBankSpectralSubtraction", "CUSTOM:SignalPCAN",
      "CUSTOM:SignalFilterBankLog", "CUSTOM:SignalFramer", "CUSTOM:SignalOverlapAdd", "CUSTOM:SignalStacker",
      "CUSTOM:SignalDelay",
  };
  return kOps;
}

}  // namespace arenaplan::tflm
