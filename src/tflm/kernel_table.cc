// The kernel table: data only. Columns per ABI: {x86-64, arm32, cortex-m}. Option structs are
// TFLM's builtin param structs (builtin_op_data.h): with short enums every enum shrinks to a byte.
// init_bytes is sizeof(OpData) each kernel's Init allocates, from the member types in TFLM's
// kernels (pointers 8/4, int enums 4, short enums 1). tests/tflm checks all of them against the
// golden data, in two alignment phases (plain and recording interpreter).
#include "tflm/kernels.h"

#include <unordered_map>

namespace arenaplan::tflm {

namespace {
using P = PrepareRule;
using InitRule = ::arenaplan::tflm::InitRule;
using S = ScratchRule;
using Ty = TypeRule;
using T = model::TensorType;
}  // namespace

const std::vector<KernelEntry>& KernelTable() {
  static const std::vector<KernelEntry> kTable = {
      // op, options size {x86, arm32, cm}, options align, init OpData bytes, prepare, scratch, types
      {"ADD", {8, 8, 2}, {4, 4, 1}, {60, 60, 60}, P::kNone, S::kNone, Ty::kNone,
       "TfLiteAddParams; OpDataAdd (bool + 14 int32)"},
      {"SUB", {8, 8, 2}, {4, 4, 1}, {52, 52, 52}, P::kNone, S::kNone, Ty::kNone,
       "TfLiteSubParams; OpDataSub (bool + 12 int32)"},
      {"MUL", {4, 4, 1}, {4, 4, 1}, {36, 36, 36}, P::kNone, S::kNone, Ty::kNone, "TfLiteMulParams; OpDataMul (9 int32)"},
      {"DIV", {4, 4, 1}, {4, 4, 1}, {28, 28, 28}, P::kNone, S::kNone, Ty::kNone, "TfLiteDivParams; OpDataDiv (7 int32)"},
      {"CONV_2D", {28, 28, 28}, {4, 4, 4}, {72, 56, 56}, P::kPerChannelFilterDim0, S::kInt4FilterUnpack, Ty::kConvInputFilter,
       "TfLiteConvParams; OpDataConv + per-channel multiplier/shift"},
      {"DEPTHWISE_CONV_2D", {28, 28, 28}, {4, 4, 4}, {72, 56, 56}, P::kPerChannelFilterDim3, S::kInt4FilterUnpack, Ty::kNone,
       "TfLiteDepthwiseConvParams; OpDataConv + per-channel multiplier/shift"},
      // TfLiteTransposeConvParams {padding enum, 2 int, activation enum, bias type enum}; OpData
      // {ConvParams (56), 2 int, 2 pointers}.
      {"TRANSPOSE_CONV", {20, 20, 16}, {4, 4, 4}, {80, 72, 72}, P::kPerChannelFilterDim0, S::kTransposeConv,
       Ty::kTransposeConvInputFilter, "TfLiteTransposeConvParams; OpData + per-channel arrays + accumulator scratch"},
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
      {"RELU", {0, 0, 0}, {1, 1, 1}, {28, 28, 28}, P::kNone, S::kNone, Ty::kNone,
       "ReluOpData {ReluParams: uint8 enum class, 6 int32}"},
      {"LOGISTIC", {0, 0, 0}, {1, 1, 1}, {16, 16, 16}, P::kNone, S::kNone, Ty::kNone, "OpDataLogistic"},
      {"PAD", {0, 0, 0}, {1, 1, 1}, {56, 56, 56}, P::kNone, S::kNone, Ty::kAllowedTypes,
       "OpData {PadParams (52), int32 output_zero_point}", InitRule::kNone, {},
       {TypeSet({T::kFloat32, T::kInt8, T::kInt16, T::kInt32}), false, true,
        "Type {type} not currently supported by Pad."}},
      {"STRIDED_SLICE", {24, 24, 24}, {4, 4, 4}, {84, 84, 84}, P::kNone, S::kNone, Ty::kNone,
       "TfLiteStridedSliceParams; StridedSliceParams"},
      {"CONCATENATION", {8, 8, 8}, {4, 4, 4}, {40, 24, 24}, P::kNone, S::kNone, Ty::kAllowedTypes,
       "TfLiteConcatenationParams; OpData", InitRule::kNone, {},
       {TypeSet({T::kFloat32, T::kInt8, T::kInt16, T::kInt32, T::kInt64, T::kBool}), false, false,
        "concatenation.cc input_type == kTfLiteFloat32 || input_type == kTfLiteInt8 || input_type == kTfLiteInt16 "
        "|| input_type == kTfLiteInt32 || input_type == kTfLiteInt64 || input_type == kTfLiteBool was not true "
        "(input {type})."}},
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
      {"VAR_HANDLE", {16, 8, 8}, {8, 4, 4}, {4, 4, 4}, P::kNone, S::kNone, Ty::kNone,
       "TfLiteVarHandleParams (2 pointers); OpData {int32 resource_id}"},
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
      {"CAST", {8, 8, 2}, {4, 4, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kAllowedTypes, "TfLiteCastParams",
       InitRule::kNone, {},
       {TypeSet({T::kInt8, T::kInt16, T::kInt32, T::kUInt32, T::kInt64, T::kFloat32}), false, true,
        "Input type {type} ({code}) not supported."}},
      {"SPACE_TO_BATCH_ND", {0, 0, 0}, {1, 1, 1}, {4, 4, 4}, P::kNone, S::kNone, Ty::kNone, "SpaceToBatchParams"},
      {"BATCH_TO_SPACE_ND", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, "no Init"},
      {"FLOOR_MOD", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kAllowedTypes, "", InitRule::kNone, {},
       {TypeSet({T::kFloat32}), false, true, "Type '{type}' is not supported by FLOOR_MOD."}},
      {"FLOOR_DIV", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kAllowedTypes, "", InitRule::kNone, {},
       {TypeSet({T::kFloat32}), false, true, "Type '{type}' is not supported by FLOOR_DIV."}},
      {"ARG_MAX", {4, 4, 1}, {4, 4, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, "TfLiteArgMaxParams"},
      {"SQRT", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, ""},
      {"MAXIMUM", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, ""},
      {"MINIMUM", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, ""},
      {"FILL", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kFillConstantDims, ""},
      {"SPLIT", {4, 4, 4}, {4, 4, 4}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, "TfLiteSplitParams"},
      {"TANH", {0, 0, 0}, {1, 1, 1}, {16, 16, 16}, P::kNone, S::kNone, Ty::kNone, "OpData (4 int32)"},
      // Rows from TFLM's kernel sources only (no golden model uses these ops); layouts per ABI as above.
      {"ABS", {0, 0, 0}, {1, 1, 1}, {28, 28, 20}, P::kNone, S::kNone, Ty::kAllowedTypes,
       "OpDataAbsRsqrt (4 int, bool, 2 enums)", InitRule::kNone, {},
       {TypeSet({T::kFloat32, T::kInt8, T::kInt16}), false, false, "Input data type {type} ({code}) is not supported."}},
      {"RSQRT", {0, 0, 0}, {1, 1, 1}, {28, 28, 20}, P::kNone, S::kNone, Ty::kAllowedTypes,
       "OpDataAbsRsqrt (4 int, bool, 2 enums)", InitRule::kNone, {},
       {TypeSet({T::kFloat32, T::kInt8}), false, false, "Input data type {type} ({code}) is not supported."}},
      {"ADD_N", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kOpDataIfInt8, S::kAddN, Ty::kAllowedTypes,
       "no Init; int8: OpData (10 int32) in Prepare; a pointer per input as scratch", InitRule::kNone, {40, 40, 40},
       {TypeSet({T::kFloat32, T::kInt8}), true, false, "ADD_N only supports FLOAT32 and INT8, got {type}."}},
      {"ARG_MIN", {4, 4, 1}, {4, 4, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, "TfLiteArgMinParams"},
      {"BATCH_MATMUL", {3, 3, 3}, {1, 1, 1}, {32, 16, 16}, P::kBatchMatMul, S::kNone, Ty::kAllowedTypes,
       "TfLiteBatchMatMulParams (3 bool); OpDataBatchmatmul (3 pointers, 3 bool)", InitRule::kNone, {},
       {TypeSet({T::kFloat32, T::kInt8, T::kInt16}), false, false,
        "batch_matmul.cc lhs_data->type == kTfLiteFloat32 || lhs_data->type == kTfLiteInt8 || lhs_data->type == "
        "kTfLiteInt16 was not true. (lhs {type})"}},
      {"BROADCAST_ARGS", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, ""},
      {"BROADCAST_TO", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, ""},
      {"CEIL", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kAllowedTypes, "", InitRule::kNone, {},
       {TypeSet({T::kFloat32}), false, false, "ceil.cc input->type != kTfLiteFloat32 ({type} != FLOAT32)"}},
      {"COS", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kAllowedTypes, "", InitRule::kNone, {},
       {TypeSet({T::kFloat32}), false, false, "Input data type {type} ({code}) is not supported."}},
      {"SIN", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kAllowedTypes, "", InitRule::kNone, {},
       {TypeSet({T::kFloat32}), false, false, "Input data type {type} ({code}) is not supported."}},
      {"LOG", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kAllowedTypes, "", InitRule::kNone, {},
       {TypeSet({T::kFloat32}), false, false, "Input data type {type} ({code}) is not supported."}},
      {"SQUARE", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kAllowedTypes, "", InitRule::kNone, {},
       {TypeSet({T::kFloat32}), false, false, "Input data type {type} ({code}) is not supported."}},
      {"LOGICAL_NOT", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kAllowedTypes, "", InitRule::kNone, {},
       {TypeSet({T::kBool}), false, false, "Input data type {type} ({code}) is not supported."}},
      {"LOGICAL_AND", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, ""},
      {"LOGICAL_OR", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kNone, ""},
      {"EXP", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kAllowedTypes, "", InitRule::kNone, {},
       {TypeSet({T::kFloat32}), false, false, "exp.cc input->type != kTfLiteFloat32 ({type} != FLOAT32)"}},
      {"ROUND", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kAllowedTypes, "", InitRule::kNone, {},
       {TypeSet({T::kFloat32}), false, false, "round.cc input->type != kTfLiteFloat32 ({type} != FLOAT32)"}},
      {"FLOOR", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kAllowedTypes, "no Prepare",
       InitRule::kNone, {},
       {TypeSet({T::kFloat32}), false, true, "floor.cc input->type != kTfLiteFloat32 ({type} != FLOAT32)"}},
      {"NEG", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kAllowedTypes, "no Init", InitRule::kNone, {},
       {TypeSet({T::kFloat32}), false, true, "Type {type} ({code}) not supported."}},
      {"CUMSUM", {2, 2, 2}, {1, 1, 1}, {0, 0, 0}, P::kOpDataIfInt8, S::kNone, Ty::kAllowedTypes,
       "TfLiteCumsumParams (2 bool); int8: OpData (9 int32) in Prepare", InitRule::kNone, {36, 36, 36},
       {TypeSet({T::kFloat32, T::kInt8}), false, false,
        "cumsum.cc input->type == kTfLiteFloat32 || input->type == kTfLiteInt8 was not true. (input {type})"}},
      {"DEPTH_TO_SPACE", {4, 4, 4}, {4, 4, 4}, {0, 0, 0}, P::kOutputDimsCopy, S::kNone, Ty::kAllowedTypes,
       "TfLiteDepthToSpaceParams; output dims copy", InitRule::kNone, {},
       {TypeSet({T::kFloat32, T::kInt8}), true, false,
        "depth_to_space.cc data_type == kTfLiteFloat32 || data_type == kTfLiteInt8 was not true. (output {type})"}},
      {"SPACE_TO_DEPTH", {4, 4, 4}, {4, 4, 4}, {0, 0, 0}, P::kOutputDimsCopy, S::kNone, Ty::kAllowedTypes,
       "TfLiteSpaceToDepthParams; output dims copy", InitRule::kNone, {},
       {TypeSet({T::kFloat32, T::kInt8}), true, false,
        "space_to_depth.cc data_type == kTfLiteFloat32 || data_type == kTfLiteInt8 was not true. (output {type})"}},
      {"ELU", {0, 0, 0}, {1, 1, 1}, {256, 256, 256}, P::kNone, S::kNone, Ty::kAllowedTypes, "OpData {int8 table[256]}",
       InitRule::kNone, {},
       {TypeSet({T::kFloat32, T::kInt8}), false, true, "ELU only supports float32 and int8 currently, got {type}."}},
      {"EMBEDDING_LOOKUP", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kEmbeddingLookup, S::kNone, Ty::kNone,
       "no Init; Prepare: output dims copy, OpData {float, size_t}"},
      {"HARD_SWISH", {0, 0, 0}, {1, 1, 1}, {20, 20, 20}, P::kNone, S::kNone, Ty::kAllowedTypes,
       "HardSwishParams (5 int32)", InitRule::kNone, {},
       {TypeSet({T::kFloat32, T::kInt8}), false, true, "Unsupported type {type}"}},
      {"IF", {8, 8, 8}, {4, 4, 4}, {8, 8, 8}, P::kNone, S::kNone, Ty::kNone,
       "TfLiteIfParams; OpData {then, else subgraph index}"},
      {"L2_NORMALIZATION", {4, 4, 1}, {4, 4, 1}, {4, 4, 4}, P::kNone, S::kNone, Ty::kAllowedTypes,
       "TfLiteL2NormParams; L2NormalizationParams {int32}", InitRule::kNone, {},
       {TypeSet({T::kFloat32, T::kInt8}), true, false,
        "l2norm.cc output->type == kTfLiteFloat32 || output->type == kTfLiteInt8 was not true. (output {type})"}},
      {"L2_POOL_2D", {40, 40, 40}, {4, 4, 4}, {0, 0, 0}, P::kOutputDimsCopy, S::kNone, Ty::kAllowedTypes,
       "TfLitePoolParams; output dims copy", InitRule::kNone, {},
       {TypeSet({T::kFloat32}), false, false, "l2_pool_2d.cc input->type != kTfLiteFloat32 ({type} != FLOAT32)"}},
      {"LOG_SOFTMAX", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kOpDataIfInt8, S::kNone, Ty::kAllowedTypes,
       "no Init; int8: LogSoftmaxOpData in Prepare", InitRule::kNone, {40, 28, 28},
       {TypeSet({T::kFloat32, T::kInt8}), false, true, "LOG_SOFTMAX only supports float32, int8, got {type}."}},
      {"MIRROR_PAD", {4, 4, 1}, {4, 4, 1}, {20, 20, 20}, P::kNone, S::kMirrorPad, Ty::kAllowedTypes,
       "TfLiteMirrorPaddingParams; OpDataMirrorPad (5 int32); 2 x int[rank] scratch", InitRule::kNone, {},
       {TypeSet({T::kFloat32, T::kInt8}), false, true, ""}},
      {"PADV2", {0, 0, 0}, {1, 1, 1}, {56, 56, 56}, P::kNone, S::kNone, Ty::kAllowedTypes,
       "PAD's kernel: OpData {PadParams (52), int32 output_zero_point}", InitRule::kNone, {},
       {TypeSet({T::kFloat32, T::kInt8, T::kInt16, T::kInt32}), false, true,
        "Type {type} not currently supported by Pad."}},
      {"PRELU", {0, 0, 0}, {1, 1, 1}, {28, 28, 28}, P::kNone, S::kNone, Ty::kAllowedTypes, "PreluParams (7 int32)",
       InitRule::kNone, {},
       {TypeSet({T::kFloat32, T::kInt8, T::kInt16}), false, true, "Input type '{type}' is not supported."}},
      {"REDUCE_MAX", {1, 1, 1}, {1, 1, 1}, {44, 44, 44}, P::kNone, S::kReduceMinMax, Ty::kAllowedTypes,
       "TfLiteReducerParams; OpDataReduce (as MEAN)", InitRule::kNone, {},
       {TypeSet({T::kFloat32, T::kInt8}), false, true, "Only float32 and int8 types are supported."}},
      {"REDUCE_ALL", {1, 1, 1}, {1, 1, 1}, {44, 44, 44}, P::kNone, S::kReduceMinMax, Ty::kNone,
       "TfLiteReducerParams; OpDataReduce and scratch as REDUCE_MAX"},
      {"REDUCE_MIN", {1, 1, 1}, {1, 1, 1}, {44, 44, 44}, P::kNone, S::kReduceMinMax, Ty::kAllowedTypes,
       "TfLiteReducerParams; OpDataReduce (as MEAN)", InitRule::kNone, {},
       {TypeSet({T::kFloat32, T::kInt8}), false, true, "Only float32 and int8 types are supported."}},
      {"SUM", {1, 1, 1}, {1, 1, 1}, {44, 44, 44}, P::kNone, S::kMean, Ty::kAllowedTypes,
       "TfLiteReducerParams; OpDataReduce and Prepare as MEAN", InitRule::kNone, {},
       {TypeSet({T::kFloat32, T::kInt8, T::kInt16}), false, true, "Only float32, int8, and int16 types are supported."}},
      {"RELU6", {0, 0, 0}, {1, 1, 1}, {8, 8, 8}, P::kNone, S::kNone, Ty::kAllowedTypes, "Relu6OpData (2 int32)",
       InitRule::kNone, {},
       {TypeSet({T::kFloat32, T::kInt8, T::kInt16}), false, true,
        "Only float32/int8/int16 is supported currently, got {type}"}},
      {"REVERSE_V2", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kAllowedTypes, "", InitRule::kNone, {},
       {TypeSet({T::kInt32, T::kFloat32, T::kUInt8, T::kInt8, T::kInt16, T::kInt64, T::kBool}), false, false,
        "Type '{type}' is not supported by reverse."}},
      {"SELECT_V2", {0, 0, 0}, {1, 1, 1}, {1, 1, 1}, P::kNone, S::kNone, Ty::kNone, "OpData {bool requires_broadcast}"},
      {"SLICE", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kAllowedTypes, "", InitRule::kNone, {},
       {TypeSet({T::kFloat32, T::kInt32, T::kInt8, T::kInt16, T::kBool}), false, true,
        "Input tensor type {type} ({code}) not supported."}},
      {"SPLIT_V", {4, 4, 4}, {4, 4, 4}, {0, 0, 0}, P::kNone, S::kNone, Ty::kAllowedTypes, "TfLiteSplitVParams",
       InitRule::kNone, {},
       {TypeSet({T::kFloat32, T::kInt8, T::kInt16, T::kInt32}), false, true, "Type {type} currently not supported."}},
      {"SQUARED_DIFFERENCE", {0, 0, 0}, {1, 1, 1}, {112, 112, 112}, P::kNone, S::kNone, Ty::kNone,
       "OpData {bool, ArithmeticParams (104, 8-aligned)}"},
      {"ZEROS_LIKE", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kAllowedTypes, "", InitRule::kNone, {},
       {TypeSet({T::kInt64, T::kInt32, T::kInt8, T::kFloat32}), false, true,
        "ZerosLike only currently supports int64, int32, and float32, got {code}."}},
      // SSD post-processing: OpData (28 4-byte fields) in Init, 11 scratch buffers from the shapes and
      // the flexbuffer options max_detections / num_classes; non-float inputs fail in Invoke silently.
      {"DYNAMIC_UPDATE_SLICE", {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, P::kNone, S::kNone, Ty::kAllowedTypes,
       "no options, no Init", InitRule::kNone, {},
       {TypeSet({T::kFloat32, T::kInt8, T::kInt16, T::kInt32}), false, true,
        "DYNAMIC_UPDATE_SLICE: Operand type {type} not supported."}},
      // The streaming-convolution op: OpDataCircularBuffer {int cycles_max, cycles_until_run}.
      {"CUSTOM:CIRCULAR_BUFFER", {0, 0, 0}, {1, 1, 1}, {8, 8, 8}, P::kNone, S::kNone, Ty::kAllowedTypes,
       "OpDataCircularBuffer (2 int)", InitRule::kNone, {},
       {TypeSet({T::kInt8}), false, false, "circular_buffer_common.cc input->type != kTfLiteInt8 ({type} != INT8)"}},
      {"CUSTOM:TFLite_Detection_PostProcess", {0, 0, 0}, {1, 1, 1}, {112, 112, 112}, P::kNone,
       S::kDetectionPostProcess, Ty::kAllowedTypes, "OpData (112)", InitRule::kNone, {},
       {TypeSet({T::kFloat32}), false, true, ""}},
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
      {"CUSTOM:SignalIrfft", {0, 0, 0}, {1, 1, 1}, {32, 24, 24}, P::kNone, S::kNone, Ty::kNone,
       "TfLiteAudioFrontendIrfftParams (4 int32, enum, pointer) + KISS FFT state", InitRule::kIrfftState},
      {"CUSTOM:SignalFramer", {0, 0, 0}, {1, 1, 1}, {40, 28, 28}, P::kSignalFramer, S::kNone, Ty::kAllowedTypes,
       "TFLMSignalFramerParams (4 int32, bool, 2 pointers); per-row state and circular buffers", InitRule::kNone, {},
       {TypeSet({T::kInt16}), false, false, "framer.cc input->type != kTfLiteInt16 ({type} != INT16)"}},
      {"CUSTOM:SignalOverlapAdd", {0, 0, 0}, {1, 1, 1}, {32, 24, 24}, P::kSignalOverlapAdd, S::kNone, Ty::kNone,
       "TFLMSignalOverlapAddParams (4 int32, enum, pointer); per-row state"},
      {"CUSTOM:SignalStacker", {0, 0, 0}, {1, 1, 1}, {56, 36, 36}, P::kNone, S::kNone, Ty::kAllowedTypes,
       "TFLMSignalStackerParams (4 int32, 2 size_t, bool, 2 pointers) + a circular buffer", InitRule::kStackerBuffer, {},
       {TypeSet({T::kInt16}), false, false, "stacker.cc input->type != kTfLiteInt16 ({type} != INT16)"}},
      {"CUSTOM:SignalDelay", {0, 0, 0}, {1, 1, 1}, {32, 20, 20}, P::kSignalDelay, S::kNone, Ty::kAllowedTypes,
       "TFLMSignalFrontendDelayParams (3 int32, 2 pointers); per-row circular buffers (delay_length option)",
       InitRule::kNone, {},
       {TypeSet({T::kInt16}), false, false, "delay.cc input->type != kTfLiteInt16 ({type} != INT16)"}},
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
      "CUSTOM:SignalDelay", "CUSTOM:CIRCULAR_BUFFER", "DYNAMIC_UPDATE_SLICE", "REDUCE_ALL",
  };
  return kOps;
}

}  // namespace arenaplan::tflm

namespace arenaplan::tflm {

const char* PrepareTempSpec(const std::string& op_name) {
  // Read from each kernel's Prepare in TFLM's sources (kernels.h has the grammar).
  static const std::unordered_map<std::string, const char*> kSpecs = {
      {"ADD_N", "i0 o0 i1+"},
      {"BATCH_MATMUL", "i0 i1 o0"},
      {"BROADCAST_ARGS", "i0 i1 o0"},
      {"BROADCAST_TO", "i0 i1 o0"},
      // ConvPrepare: output, input, filter; per-channel arrays; CalculateOpDataConv: input, filter,
      // bias, output again (depthwise the same).
      {"CONV_2D", "o0 i0 i1 P i0 i1 i2 o0"},
      {"DEPTHWISE_CONV_2D", "o0 i0 i1 P i0 i1 i2 o0"},
      {"CUMSUM", "i0 i1 o0"},
      {"CUSTOM:CIRCULAR_BUFFER", "i0 o0"},
      {"DEPTH_TO_SPACE", "i0 o0"},
      {"DYNAMIC_UPDATE_SLICE", "i0 i1 i2 o0"},
      {"ELU", "i0 o0"},
      {"EMBEDDING_LOOKUP", "i0 i1 o0"},
      {"L2_NORMALIZATION", "i0 o0"},
      {"L2_POOL_2D", "o0 i0"},
      // PrepareMeanOrSumHelper: input, output, axis, then PrepareSimple: input, axis, output (int8).
      {"MEAN", "i0 o0 i1 i0 i1 o0?INT8"},
      {"SUM", "i0 o0 i1 i0 i1 o0?INT8"},
      // PrepareMaxHelper: PrepareSimple (input, axis, output if int8), then input, output, axis.
      {"REDUCE_MAX", "i0 i1 o0?INT8 i0 o0 i1"},
      {"REDUCE_MIN", "i0 i1 o0?INT8 i0 o0 i1"},
      {"REDUCE_ALL", "i0 i1 o0 i0 o0 i1"},
      {"SPACE_TO_DEPTH", "i0 o0"},
      // ConcatenationPrepare: input 0 and output for the types, every input for its rank, the
      // output; int8 reads every input once more for its scale and zero point.
      {"CONCATENATION", "i0 o0 i* o0 i*?INT8"},
      {"FULLY_CONNECTED", "i0 i1 i2 o0"},
      {"FLOOR_DIV", "i0 i1 o0"},
      {"LOG_SOFTMAX", "i0 o0"},
      {"MIRROR_PAD", "i0 i1 o0"},
      {"RESIZE_BILINEAR", "i0 i1 o0"},
      {"SELECT_V2", "i0 i1 i2 o0"},
      {"SLICE", "i0 i1 i2 o0"},
      {"HARD_SWISH", "i0 o0"},
      // ComparisonsPrepare reads the two inputs only.
      {"EQUAL", "i0 i1"},
      {"NOT_EQUAL", "i0 i1"},
      {"GREATER", "i0 i1"},
      {"GREATER_EQUAL", "i0 i1"},
      {"LESS", "i0 i1"},
      {"LESS_EQUAL", "i0 i1"},
      // elementwise.cc: GenericPrepare and PrepareAbsRsqrt read the input and the output.
      {"ABS", "i0 o0"},
      {"COS", "i0 o0"},
      {"LOG", "i0 o0"},
      {"LOGICAL_NOT", "i0 o0"},
      {"RSQRT", "i0 o0"},
      {"SIN", "i0 o0"},
      {"SQRT", "i0 o0"},
      {"SQUARE", "i0 o0"},
      {"ADD", "i0 i1 o0"},
      {"AVERAGE_POOL_2D", "i0 o0"},
      {"MAX_POOL_2D", "i0 o0"},
      {"SOFTMAX", "i0 o0"},
      {"QUANTIZE", "i0 o0"},
      {"DEQUANTIZE", "i0 o0"},
      {"RESHAPE", "i0 i1 o0"},
      {"MUL", "i0 i1 o0"},
      {"SUB", "i0 i1 o0"},
      {"TRANSPOSE", "i0 i1 o0"},
      // LstmTensors: all 24 inputs (omitted ones allocate nothing), then the output.
      {"UNIDIRECTIONAL_SEQUENCE_LSTM", "i* o0"},
      // Resource variables: ASSIGN_VARIABLE reads the id as an eval tensor and allocates the
      // variable's buffer while the value's temp tensor is live.
      {"ASSIGN_VARIABLE", "i1"},
      {"READ_VARIABLE", "i0"},
      {"VAR_HANDLE", ""},
      {"CALL_ONCE", ""},
      // Registered without a Prepare.
      {"LOGICAL_AND", ""},
      {"LOGICAL_OR", ""},
      {"MAXIMUM", ""},
      {"MINIMUM", ""},
      {"PACK", ""},
      {"UNPACK", ""},
      {"CUSTOM:TFLite_Detection_PostProcess", "i0 i1 i2"},
      {"CUSTOM:SignalDelay", "i0 o0"},
      {"CUSTOM:SignalFramer", "i0 o0 o1"},
      {"CUSTOM:SignalIrfft", "i0 o0"},
      {"CUSTOM:SignalRfft", "i0 o0"},  // input, output; the work area is a scratch request
      {"CUSTOM:SignalOverlapAdd", "i0 o0"},
      {"CUSTOM:SignalStacker", "i0 o0 o1"},
  };
  auto it = kSpecs.find(op_name);
  return it == kSpecs.end() ? nullptr : it->second;
}

}  // namespace arenaplan::tflm
