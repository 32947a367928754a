// The kernel model: what each TFLM kernel allocates, as data (kernel_table.cc, one row per op),
// and the few shape formulas the rows refer to (kernels.cc). Sizes are per ABI (target.h) because
// pointer width and enum size change OpData and builtin option structs. Derived from TFLM's public
// kernel sources (read for facts) and pinned to the golden tails in tests/tflm.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "model/model.h"
#include "tflm/target.h"
#include "util/result.h"

namespace arenaplan::tflm {

// Extra persistent buffers a kernel's Prepare allocates (16-aligned each), as a formula of shapes.
enum class PrepareRule : uint8_t {
  kNone,
  kPerChannelFilterDim0,    // 2 x int32[filter dim 0] (conv, transpose conv)
  kPerChannelFilterDim3,    // 2 x int32[filter dim 3] (depthwise conv)
  kPerChannelIfMultiScale,  // 2 x int32[filter dim 0] when the filter has > 1 scale (FC)
  kSoftmaxInt16Luts,        // 2 x int16[513] lookup tables when the input is int16
  kOutputDimsCopy,          // TfLiteIntArray of the output's rank: CreateWritableTensorDimsWithCopy
                            // (GATHER, GATHER_ND, ... rewrite the output dims, which live in the flatbuffer)
  kOpDataIfInt8,            // KernelEntry::prepare_opdata when input 0 is int8 (ADD_N, CUMSUM, LOG_SOFTMAX)
  kEmbeddingLookup,         // output dims copy, then OpData {float scale; size_t num_columns}
  kBatchMatMul,             // int8/int16 quantization data; transposed copies of the left operand (adj_x)
                            // and of the right one (!adj_y): eval tensor, dims, data; output dims copy
  kSignalFramer,            // int8*[outer], CircularBuffer*[outer], a circular buffer per row
  kSignalDelay,             // the same, with capacity frame + delay_length (custom option 0)
  kSignalOverlapAdd,        // T*[outer], then frame_size x T per row
};

// Scratch buffers a kernel requests in Prepare (planned in the head, live only while it runs).
enum class ScratchRule : uint8_t {
  kNone,
  kTransposeConv,         // int8 output: int32 accumulators per output element; int16: int64, plus an int64
                          // copy of an int16 bias
  kMean,                  // int8/int16: int32 per output element; then int[axes], int[input rank]
  kReduceMinMax,          // int[input rank], then int[axes]
  kSvdf,                  // int32[batch x filters], int32[batch x units]
  kLstm,                  // 4 gate buffers of batch x cells (int16 for integer models, float otherwise)
  kRfft,                  // work area of fft_length (= output last dim - 2) input-type samples
  kInt4FilterUnpack,      // int4 filter (input 1): one byte per filter element to unpack it into
  kAddN,                  // one pointer per input
  kMirrorPad,             // int[input rank] twice
  kDetectionPostProcess,  // 11 buffers sized by the boxes, classes and max_detections (custom options)
};

// Extra persistent buffers a kernel's Init allocates beside its OpData (16-aligned each).
enum class InitRule : uint8_t {
  kNone,
  kRfftState,                 // KISS FFT real-FFT state for fft_length = output last dim - 2
  kIrfftState,                // KISS FFT state for fft_length = output last dim (+ a float wrapper)
  kFilterBankWorkArea,        // uint64[output elements + 1]
  kSpectralSubtractionNoise,  // uint32[output elements] (the noise estimate kept across Invokes)
  kStackerBuffer,             // a circular buffer holding the stacked output
};

// Type checks TFLM's kernels make, with the stage where they fail.
enum class TypeRule : uint8_t {
  kNone,
  kConvInputFilter,           // Prepare: only f32/f32, int16/int8, int8/int8|int4 ("Hybrid models ...")
  kFcInputFilter,             // Prepare: the same pairs, FULLY_CONNECTED's own message
  kTransposeConvInputFilter,  // Prepare: input type == filter type, or int16/int8
  kDepthwiseInputFilter,      // Invoke: int8 input needs an int8 / int4 filter, int16 an int8 one
  kFillConstantDims,          // Prepare: the dims input must be constant
  kAllowedTypes,              // KernelEntry::check: the tensor's type must be in a set
};

// A set of tensor types, as a bit mask over TensorType values.
constexpr uint32_t TypeSet(std::initializer_list<model::TensorType> types) {
  uint32_t mask = 0;
  for (model::TensorType t : types) mask |= 1u << static_cast<uint32_t>(t);
  return mask;
}

// One type check: TypeRule::kAllowedTypes reads it. `message` is TFLM's text with {type} (name)
// and {code} (number) of the offending type.
struct TypeCheck {
  uint32_t allowed = 0;
  bool output = false;     // check output 0 instead of input 0
  bool at_invoke = false;  // fails in Invoke (AllocateTensors succeeds)
  const char* message = "";
};

struct KernelEntry {
  const char* op;                    // "CONV_2D", or "CUSTOM:<custom_code>"
  uint16_t options_size[kAbiCount];  // builtin option struct (tail, own alignment); 0 = none
  uint8_t options_align[kAbiCount];
  uint16_t init_bytes[kAbiCount];  // OpData from Init (AllocatePersistentBuffer); 0 = none
  PrepareRule prepare;
  ScratchRule scratch;
  TypeRule types;
  const char* note;  // where the figures come from
  InitRule init_rule = InitRule::kNone;
  uint16_t prepare_opdata[kAbiCount] = {0, 0, 0};  // PrepareRule::kOpDataIfInt8
  TypeCheck check = {};                            // TypeRule::kAllowedTypes
  TypeCheck then_check = {};                       // a second one, made when `check` passes (allowed 0: none)
};

// The tensors one op's Prepare fetches as temporary TfLiteTensors, in order, as a spec string
// (kernel_table.cc): space-separated tokens
//   iK / oK   input / output K (an omitted optional input allocates nothing)
//   i* / o*   every input / output;  iK+  inputs K, K+1, ...
//   P         the kernel's Prepare persistent buffers are allocated here (default: at the end)
//   TOKEN?T1,T2  only when input 0 has one of the types T1, T2 (TensorTypeName spelling)
// nullptr when the op has no verified entry: the caller then assumes kUnverifiedTempSpec, every
// input and output fetched twice, above what most kernels take, and says so.
inline constexpr const char* kUnverifiedTempSpec = "i* o* i* o*";
const char* PrepareTempSpec(const std::string& op_name);

// The whole table, one entry per op TFLM's full op resolver registers.
const std::vector<KernelEntry>& KernelTable();
// nullptr when the table has no row for this op.
const KernelEntry* FindKernelEntry(const std::string& op_name);
// The ops stock TFLM's full op resolver registers (with or without a table row). An op outside
// this list makes AllocateTensors fail ("Didn't find op for builtin opcode").
const std::vector<std::string>& TflmRegisteredOps();

// One temporary allocation of a kernel's Prepare (MicroContext::AllocateTempInput/OutputTensor):
// a TfLiteTensor, then, for a tensor with scale and zero point, its TfLiteAffineQuantization and
// the zero-point TfLiteIntArray. DeallocateTempTfLiteTensor gives nothing back: temp is rewound
// only after the node's Prepare, so a node's temp peak is the sum of all of them.
// A persistent buffer the kernel allocates while temps are live is checked only against the head
// (TFLM's tail ignores temp), so it may overwrite temp memory; Prepare still works unless it hits
// bytes read later: the TfLiteTensor structs and the quantization structs' two pointers (their
// zero-point pointer must come back intact to DeallocateTemp). `critical` is that prefix; after
// a kernel's last write only the tensor's quantization, params, data, dims and bytes fields are
// read (`critical_last`; its type, allocation type and is_variable come after them).
struct TempAllocation {
  uint32_t size = 0;
  uint32_t align = 1;
  uint32_t critical = 0;       // bytes from the start that later code reads
  uint32_t critical_last = 0;  // the same after the kernel's last persistent buffer (kWrittenLast)
};

// What one operator allocates on a target.
struct OpAllocation {
  StructLayout options;  // size 0 = none
  uint32_t init_bytes = 0;
  std::vector<uint64_t> init_extra_bytes;  // each a 16-aligned persistent buffer, after init_bytes
  std::vector<uint64_t> prepare_bytes;     // each a 16-aligned persistent buffer
  // Per prepare buffer: what Prepare does with it while its temps are live (TempAllocation).
  enum class Write : uint8_t {
    kWritten,      // filled in Prepare, then the kernel still reads its temp tensors
    kUnwritten,    // only reserved in Prepare (e.g. BATCH_MATMUL's transposed operand data)
    kWrittenLast,  // filled last: afterwards only the tensors' data / dims fields are read
  };
  std::vector<Write> prepare_write;
  std::vector<uint64_t> scratch_bytes;  // scratch requests in request order
  // Prepare's temp allocations in order; the kernel's Prepare persistent buffers (prepare_bytes,
  // and ASSIGN_VARIABLE's resource buffer) are taken after the first `temp_before_persistent`.
  std::vector<TempAllocation> prepare_temp;
  size_t temp_before_persistent = 0;
  bool temp_verified = true;  // false: the op's temp pattern is kUnverifiedTempSpec
};

// Fails (Unsupported) when TFLM has no kernel for the op; InvalidArgument on shapes the formula
// cannot use (named by subgraph / op / tensor).
Result<OpAllocation> EvaluateKernel(const model::Model& model, size_t subgraph, size_t op, const Target& target);

// The message TFLM prints when a kernel rejects the op's types, and the stage ("AllocateTensors"
// or "Invoke"); empty message when the types are fine.
struct TypeVerdict {
  std::string message;
  bool at_invoke = false;
};
TypeVerdict CheckKernelTypes(const model::Model& model, size_t subgraph, size_t op, const KernelEntry& entry);

}  // namespace arenaplan::tflm
