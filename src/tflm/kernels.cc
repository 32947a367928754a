// Evaluates kernel-table rows against one operator: O(inputs + outputs + rank) per op.
#include "tflm/kernels.h"

#include <flatbuffers/flexbuffers.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <unordered_map>

#include "rules/int4.h"
#include "util/checked_math.h"

namespace arenaplan::tflm {
namespace {

using model::TensorType;

std::string OpWhere(const model::Model& m, size_t s, size_t i) {
  return "subgraph " + std::to_string(s) + ", op " + std::to_string(i) + " (" +
         m.code_of(m.subgraphs[s].operators[i]).name + ")";
}

// The tensor at position `pos` of the op's inputs (outputs when `output`), or nullptr.
const model::Tensor* OpTensor(const model::Model& m, size_t s, size_t i, size_t pos, bool output = false) {
  const model::Operator& op = m.subgraphs[s].operators[i];
  const std::vector<int32_t>& list = output ? op.outputs : op.inputs;
  if (pos >= list.size() || list[pos] < 0) return nullptr;
  return &m.subgraphs[s].tensors[static_cast<size_t>(list[pos])];
}

uint64_t Elements(const model::Tensor& t) {
  uint64_t n = 1;
  for (int32_t d : t.shape) n = CheckedMul(n, static_cast<uint64_t>(d < 0 ? 0 : d)).value_or(UINT64_MAX);
  return n;
}

Result<uint64_t> Dim(const model::Model& m, size_t s, size_t i, const model::Tensor* t, size_t dim, const char* what) {
  if (t == nullptr || dim >= t->shape.size() || t->shape[dim] < 0) {
    return InvalidArgument(OpWhere(m, s, i) + ": " + what + " has no dimension " + std::to_string(dim));
  }
  return static_cast<uint64_t>(t->shape[dim]);
}

// TFLM's TfLiteType number for a schema type (they differ: FLOAT32 is 0 in the schema, 1 in TFLM).
int TfLiteTypeCode(TensorType t) {
  switch (t) {
    case TensorType::kFloat32: return 1;
    case TensorType::kFloat16: return 10;
    case TensorType::kFloat64: return 11;
    case TensorType::kComplex128: return 12;
    case TensorType::kUInt64: return 13;
    case TensorType::kResource: return 14;
    case TensorType::kVariant: return 15;
    case TensorType::kUInt32: return 16;
    case TensorType::kUInt16: return 17;
    case TensorType::kInt4: return 18;
    case TensorType::kBFloat16: return 19;
    default: return static_cast<int>(t);  // INT32 .. INT8 share their numbers
  }
}

// Saturating product: a formula fed absurd shapes or options yields UINT64_MAX, which
// EvaluateKernel rejects, instead of wrapping around to a small size.
uint64_t Mul(uint64_t a, uint64_t b) { return CheckedMul(a, b).value_or(UINT64_MAX); }
uint64_t Mul(uint64_t a, uint64_t b, uint64_t c) { return Mul(Mul(a, b), c); }

// Signal ops keep one state buffer per row; more rows than this is not a model TFLM could run.
constexpr uint64_t kMaxSignalRows = 1 << 16;

// TfLiteIntArrayGetSizeInBytes: int size + int data[rank].
uint64_t IntArrayBytes(size_t rank) { return 4 + 4 * static_cast<uint64_t>(rank); }

// tflm_signal::CircularBuffer {size_t capacity, read, write; int32 empty, buffer_size; int16* buffer}
// plus its storage of 2 x capacity int16 (CircularBufferGetNeededMemory).
uint64_t CircularBufferBytes(uint64_t capacity, const Target& t) {
  return CheckedAdd(AlignUp<uint64_t>(3 * uint64_t{t.size_t_bytes} + 8, t.pointer_bytes) + t.pointer_bytes,
                    Mul(4, capacity))
      .value_or(UINT64_MAX);
}

// Rows of a signal op: all elements but the last dimension.
uint64_t OuterRows(const model::Tensor& t, size_t inner_dims) {
  uint64_t n = 1;
  for (size_t d = 0; d + inner_dims < t.shape.size(); ++d) n = Mul(n, static_cast<uint64_t>(std::max(t.shape[d], 0)));
  return n;
}

// An integer from a custom op's flexbuffer options: the map entry `key`, or element `index` when
// the root is a vector. nullopt when absent or when the options do not verify.
std::optional<int64_t> CustomOption(const model::Operator& op, const char* key, size_t index) {
  if (op.custom_options == nullptr || op.custom_options_size == 0) return std::nullopt;
  // The options sit anywhere in the file; flexbuffers reads scalars in place, so parse an aligned
  // copy (its verifier then also rejects misaligned offsets inside).
  const std::vector<uint8_t> options(op.custom_options, op.custom_options + op.custom_options_size);
  if (!flexbuffers::VerifyBuffer(options.data(), options.size())) return std::nullopt;
  const flexbuffers::Reference root = flexbuffers::GetRoot(options.data(), options.size());
  flexbuffers::Reference v;
  if (root.IsMap()) {
    v = root.AsMap()[key];
  } else if (root.IsVector() && index < root.AsVector().size()) {
    v = root.AsVector()[index];
  }
  if (v.IsNull()) return std::nullopt;
  // TFLM reads these with AsInt32.
  const int64_t value = v.AsInt64();
  if (value < INT32_MIN || value > INT32_MAX) return std::nullopt;
  return value;
}

Result<std::vector<uint64_t>> PrepareBytes(const model::Model& m, size_t s, size_t i, const KernelEntry& entry,
                                           const Target& target) {
  const PrepareRule rule = entry.prepare;
  const model::Operator& op = m.subgraphs[s].operators[i];
  switch (rule) {
    case PrepareRule::kNone: return std::vector<uint64_t>{};
    case PrepareRule::kPerChannelFilterDim0:
    case PrepareRule::kPerChannelFilterDim3:
    case PrepareRule::kPerChannelIfMultiScale: {
      // Transpose conv keeps its filter at input 1 as well; conv / depthwise / FC at input 1.
      const model::Tensor* filter = OpTensor(m, s, i, 1);
      if (rule == PrepareRule::kPerChannelIfMultiScale) {
        if (filter == nullptr || !filter->quantization || filter->quantization->scale.size() <= 1) {
          return std::vector<uint64_t>{};
        }
      }
      const size_t dim = rule == PrepareRule::kPerChannelFilterDim3 ? 3 : 0;
      auto channels = Dim(m, s, i, filter, dim, "filter");
      if (!channels.ok()) return channels.status();
      return std::vector<uint64_t>{4 * *channels, 4 * *channels};
    }
    case PrepareRule::kSoftmaxInt16Luts: {
      const model::Tensor* in = OpTensor(m, s, i, 0);
      if (in != nullptr && in->type == TensorType::kInt16) return std::vector<uint64_t>{1026, 1026};
      return std::vector<uint64_t>{};
    }
    case PrepareRule::kOutputDimsCopy: {
      // TfLiteIntArrayGetSizeInBytes(rank): int size + int data[rank], of the flatbuffer output shape.
      const model::Tensor* out = OpTensor(m, s, i, 0, true);
      if (out == nullptr) return InvalidArgument(OpWhere(m, s, i) + ": no output tensor");
      return std::vector<uint64_t>{IntArrayBytes(out->shape.size())};
    }
    case PrepareRule::kOpDataIfInt8: {
      const model::Tensor* in = OpTensor(m, s, i, 0);
      if (in == nullptr || in->type != TensorType::kInt8) return std::vector<uint64_t>{};
      return std::vector<uint64_t>{entry.prepare_opdata[static_cast<int>(target.abi)]};
    }
    case PrepareRule::kEmbeddingLookup: {
      const model::Tensor* out = OpTensor(m, s, i, 0, true);
      if (out == nullptr) return InvalidArgument(OpWhere(m, s, i) + ": no output tensor");
      // OpData {float scale; size_t num_columns}.
      return std::vector<uint64_t>{IntArrayBytes(out->shape.size()),
                                   AlignUp<uint64_t>(4, target.size_t_bytes) + target.size_t_bytes};
    }
    case PrepareRule::kBatchMatMul: {
      const model::Tensor* lhs = OpTensor(m, s, i, 0);
      const model::Tensor* rhs = OpTensor(m, s, i, 1);
      const model::Tensor* out = OpTensor(m, s, i, 0, true);
      if (lhs == nullptr || rhs == nullptr || out == nullptr) {
        return InvalidArgument(OpWhere(m, s, i) + ": needs two inputs and an output");
      }
      std::vector<uint64_t> r;
      // QuantizationOpDataBatchMatmul: 7 int32.
      if (lhs->type == TensorType::kInt8 || lhs->type == TensorType::kInt16) r.push_back(28);
      auto transposed_copy = [&](const model::Tensor& t) {
        const auto scalar = model::TensorTypeBytes(t.type);
        r.push_back(target.eval_tensor.size);
        r.push_back(IntArrayBytes(t.shape.size()));
        r.push_back(Mul(Elements(t), scalar ? *scalar : 0));
      };
      if (op.adj_x) transposed_copy(*lhs);
      if (!op.adj_y) transposed_copy(*rhs);
      r.push_back(IntArrayBytes(out->shape.size()));
      return r;
    }
    case PrepareRule::kSignalFramer:
    case PrepareRule::kSignalDelay: {
      const model::Tensor* in = OpTensor(m, s, i, 0);
      const model::Tensor* out = OpTensor(m, s, i, 0, true);
      if (in == nullptr || out == nullptr || in->shape.empty() || out->shape.empty()) {
        return InvalidArgument(OpWhere(m, s, i) + ": needs a shaped input and output");
      }
      const uint64_t rows = OuterRows(*in, 1);
      uint64_t capacity = 0;
      if (rule == PrepareRule::kSignalFramer) {
        // frame_size = output last dim; frame_step = input last dim / frames (output dim -2);
        // capacity = ceil(frame_size / frame_step) * frame_step.
        const uint64_t frame = static_cast<uint64_t>(std::max(out->shape.back(), 0));
        const uint64_t frames = out->shape.size() >= 2
                                    ? static_cast<uint64_t>(std::max(out->shape[out->shape.size() - 2], 1))
                                    : 1;
        const uint64_t step = static_cast<uint64_t>(std::max(in->shape.back(), 0)) / frames;
        if (step == 0) return InvalidArgument(OpWhere(m, s, i) + ": frame_step would be 0");
        capacity = (frame + step - 1) / step * step;
      } else {
        const auto delay = CustomOption(op, "delay_length", 0);
        if (!delay || *delay < 0) {
          return InvalidArgument(OpWhere(m, s, i) + ": custom options lack a valid 'delay_length'");
        }
        capacity = static_cast<uint64_t>(std::max(in->shape.back(), 0)) + static_cast<uint64_t>(*delay);
      }
      if (rows > kMaxSignalRows) return InvalidArgument(OpWhere(m, s, i) + ": too many rows of signal state");
      std::vector<uint64_t> r{rows * target.pointer_bytes, rows * target.pointer_bytes};
      for (uint64_t k = 0; k < rows; ++k) r.push_back(CircularBufferBytes(capacity, target));
      return r;
    }
    case PrepareRule::kSignalOverlapAdd: {
      const model::Tensor* in = OpTensor(m, s, i, 0);
      if (in == nullptr || in->shape.size() < 2) return InvalidArgument(OpWhere(m, s, i) + ": input needs rank >= 2");
      const uint64_t frame = static_cast<uint64_t>(std::max(in->shape.back(), 0));
      const uint64_t rows = OuterRows(*in, 2);
      const auto scalar = model::TensorTypeBytes(in->type);
      if (rows > kMaxSignalRows) return InvalidArgument(OpWhere(m, s, i) + ": too many rows of signal state");
      std::vector<uint64_t> r{rows * target.pointer_bytes};
      for (uint64_t k = 0; k < rows; ++k) r.push_back(Mul(frame, scalar ? *scalar : 0));
      return r;
    }
  }
  return Internal("unknown prepare rule");
}

Result<std::vector<uint64_t>> ScratchBytes(const model::Model& m, size_t s, size_t i, ScratchRule rule,
                                           const Target& target) {
  const model::Operator& op = m.subgraphs[s].operators[i];
  switch (rule) {
    case ScratchRule::kNone: return std::vector<uint64_t>{};
    case ScratchRule::kTransposeConv: {
      const model::Tensor* out = OpTensor(m, s, i, 0, true);
      if (out == nullptr) return InvalidArgument(OpWhere(m, s, i) + ": no output tensor");
      if (out->type == TensorType::kInt8) return std::vector<uint64_t>{Mul(4, Elements(*out))};
      if (out->type != TensorType::kInt16) return std::vector<uint64_t>{};
      std::vector<uint64_t> r{Mul(8, Elements(*out))};
      // 16x8 with an int16 bias: the bias is widened to int64 in a scratch buffer (input 3).
      const model::Tensor* bias = OpTensor(m, s, i, 3);
      if (bias != nullptr && bias->type == TensorType::kInt16) r.push_back(Mul(8, Elements(*bias)));
      return r;
    }
    case ScratchRule::kReduceMinMax: {
      const model::Tensor* in = OpTensor(m, s, i, 0);
      const model::Tensor* axis = OpTensor(m, s, i, 1);
      if (in == nullptr || axis == nullptr) return InvalidArgument(OpWhere(m, s, i) + ": needs input and axis tensors");
      return std::vector<uint64_t>{4 * static_cast<uint64_t>(in->shape.size()), Mul(4, Elements(*axis))};
    }
    case ScratchRule::kAddN: return std::vector<uint64_t>{uint64_t{target.pointer_bytes} * op.inputs.size()};
    case ScratchRule::kMirrorPad: {
      const model::Tensor* in = OpTensor(m, s, i, 0);
      if (in == nullptr) return InvalidArgument(OpWhere(m, s, i) + ": no input tensor");
      const uint64_t bytes = 4 * static_cast<uint64_t>(in->shape.size());
      return std::vector<uint64_t>{bytes, bytes};
    }
    case ScratchRule::kDetectionPostProcess: {
      const model::Tensor* boxes = OpTensor(m, s, i, 0);
      const model::Tensor* classes = OpTensor(m, s, i, 1);
      if (boxes == nullptr || classes == nullptr || boxes->shape.size() != 3 || classes->shape.size() != 3) {
        return InvalidArgument(OpWhere(m, s, i) + ": box encodings and class predictions must have rank 3");
      }
      const auto max_detections = CustomOption(op, "max_detections", 0);
      const auto num_classes = CustomOption(op, "num_classes", 0);
      if (!max_detections || !num_classes || *max_detections < 0 || *num_classes < 0) {
        return InvalidArgument(OpWhere(m, s, i) + ": custom options lack 'max_detections' / 'num_classes'");
      }
      const uint64_t boxes_n = static_cast<uint64_t>(std::max(boxes->shape[1], 0));
      const uint64_t md = static_cast<uint64_t>(*max_detections), nc = static_cast<uint64_t>(*num_classes);
      const uint64_t scores = Mul(static_cast<uint64_t>(std::max(classes->shape[1], 0)),
                                  static_cast<uint64_t>(std::max(classes->shape[2], 0)), 4);
      const uint64_t per_box = Mul(md, boxes_n, 4);
      return std::vector<uint64_t>{boxes_n,
                                   boxes_n * 16,
                                   scores,
                                   boxes_n * 4,
                                   boxes_n * 4,
                                   per_box,
                                   per_box,
                                   boxes_n * 4,
                                   per_box,
                                   Mul(std::max(nc, md), boxes_n, 4),
                                   Mul(std::min(boxes_n, md), boxes_n, 4)};
    }
    case ScratchRule::kMean: {
      const model::Tensor* in = OpTensor(m, s, i, 0);
      const model::Tensor* axis = OpTensor(m, s, i, 1);
      const model::Tensor* out = OpTensor(m, s, i, 0, true);
      if (in == nullptr || axis == nullptr || out == nullptr) {
        return InvalidArgument(OpWhere(m, s, i) + ": needs input, axis and output tensors");
      }
      std::vector<uint64_t> r;
      if (in->type == TensorType::kInt8 || in->type == TensorType::kInt16) r.push_back(Mul(4, Elements(*out)));
      const uint64_t axes = Elements(*axis) == 0 ? 1 : Elements(*axis);
      r.push_back(Mul(4, axes));
      r.push_back(4 * static_cast<uint64_t>(in->shape.size()));
      return r;
    }
    case ScratchRule::kSvdf: {
      auto filters = Dim(m, s, i, OpTensor(m, s, i, 1), 0, "weights_feature");
      const model::Tensor* out = OpTensor(m, s, i, 0, true);
      auto batch = Dim(m, s, i, out, 0, "output");
      if (!filters.ok()) return filters.status();
      if (!batch.ok()) return batch.status();
      const uint64_t units = out->shape.empty() ? 0 : static_cast<uint64_t>(out->shape.back());
      return std::vector<uint64_t>{Mul(4, *batch, *filters), Mul(4, *batch, units)};
    }
    case ScratchRule::kLstm: {
      const model::Tensor* in = OpTensor(m, s, i, 0);
      auto cells = Dim(m, s, i, OpTensor(m, s, i, 1), 0, "input_to_input weights");
      auto batch = Dim(m, s, i, in, 0, "input");
      if (!cells.ok()) return cells.status();
      if (!batch.ok()) return batch.status();
      const bool integer = in->type == TensorType::kInt8 || in->type == TensorType::kInt16 ||
                           in->type == TensorType::kUInt8;
      const uint64_t bytes = Mul(integer ? 2 : 4, *batch, *cells);
      return std::vector<uint64_t>(4, bytes);
    }
    case ScratchRule::kInt4FilterUnpack: {  // rules/int4.h: one byte per filter element
      const model::Tensor* filter = OpTensor(m, s, i, 1);
      if (filter == nullptr || filter->type != TensorType::kInt4) return std::vector<uint64_t>{};
      return std::vector<uint64_t>{rules::Int4UnpackScratchBytes(Elements(*filter))};
    }
    case ScratchRule::kRfft: {
      const model::Tensor* out = OpTensor(m, s, i, 0, true);
      if (out == nullptr) return InvalidArgument(OpWhere(m, s, i) + ": no output tensor");
      // fft_length samples of the input type; the output holds fft_length / 2 + 1 complex values.
      const uint64_t last = out->shape.empty() ? 0 : static_cast<uint64_t>(std::max(out->shape.back(), 2));
      const auto scalar = model::TensorTypeBytes(out->type);
      return std::vector<uint64_t>{(last - 2) * (scalar ? *scalar : 0)};
    }
  }
  return Internal("unknown scratch rule");
}

// KISS FFT's kiss_fftr_alloc size for a real FFT of length n: the fftr state (three pointers), a
// complex FFT of n/2 (nfft, inverse, 64 factor ints, then n/2 twiddles) and 3n/4 super twiddles.
uint64_t KissFftrBytes(uint64_t n, uint64_t scalar_bytes, uint32_t pointer_bytes) {
  const uint64_t cpx = 2 * scalar_bytes;
  const uint64_t half = n / 2;
  const uint64_t sub = 4 + 4 + 4 * 64 + cpx * half;
  return 3 * pointer_bytes + sub + cpx * (half * 3 / 2);
}

Result<std::vector<uint64_t>> InitExtraBytes(const model::Model& m, size_t s, size_t i, InitRule rule,
                                             const Target& target) {
  if (rule == InitRule::kNone) return std::vector<uint64_t>{};
  const model::Tensor* out = OpTensor(m, s, i, 0, true);
  if (out == nullptr) return InvalidArgument(OpWhere(m, s, i) + ": no output tensor");
  switch (rule) {
    case InitRule::kNone: break;
    case InitRule::kRfftState: {
      if (out->shape.empty() || out->shape.back() < 4) {
        return InvalidArgument(OpWhere(m, s, i) + ": output last dimension must hold fft_length + 2 values");
      }
      const auto scalar = model::TensorTypeBytes(out->type);
      if (!scalar) return InvalidArgument(OpWhere(m, s, i) + ": output type has no size");
      return std::vector<uint64_t>{
          KissFftrBytes(static_cast<uint64_t>(out->shape.back()) - 2, *scalar, target.pointer_bytes)};
    }
    case InitRule::kIrfftState: {
      if (out->shape.empty() || out->shape.back() < 2) {
        return InvalidArgument(OpWhere(m, s, i) + ": output last dimension must be fft_length");
      }
      const uint64_t n = static_cast<uint64_t>(out->shape.back());
      switch (out->type) {
        case TensorType::kInt16: return std::vector<uint64_t>{KissFftrBytes(n, 2, target.pointer_bytes)};
        case TensorType::kInt32: return std::vector<uint64_t>{KissFftrBytes(n, 4, target.pointer_bytes)};
        case TensorType::kFloat32:  // IrfftFloatState {int32 fft_length; kiss_fftr_cfg cfg} in front
          return std::vector<uint64_t>{2 * uint64_t{target.pointer_bytes} + KissFftrBytes(n, 4, target.pointer_bytes)};
        default: return InvalidArgument(OpWhere(m, s, i) + ": output type must be INT16, INT32 or FLOAT32");
      }
    }
    case InitRule::kStackerBuffer: return std::vector<uint64_t>{CircularBufferBytes(Elements(*out), target)};
    case InitRule::kFilterBankWorkArea:
      return std::vector<uint64_t>{Mul(8, CheckedAdd(Elements(*out), 1).value_or(UINT64_MAX))};
    case InitRule::kSpectralSubtractionNoise: return std::vector<uint64_t>{Mul(4, Elements(*out))};
  }
  return Internal("unknown init rule");
}

// The temp allocations of one fetched tensor (MicroAllocator::AllocateTempTfLiteTensor).
void AddTempTensor(const model::Tensor& t, const Target& target, std::vector<TempAllocation>* out) {
  // TfLiteTensor (static memory): quantization {type, params*}, params {scale, zero_point}, data*,
  // dims*, size_t bytes, then type, allocation_type, is_variable.
  const uint32_t tensor_fields = 5 * target.pointer_bytes + 8;
  const uint32_t pointers = 2 * target.pointer_bytes;  // TfLiteAffineQuantization {scale*, zero_point*, ..}
  out->push_back(
      {target.persistent_tensor.size, target.persistent_tensor.align, target.persistent_tensor.size, tensor_fields});
  if (t.quantization && !t.quantization->scale.empty() && !t.quantization->zero_point.empty()) {
    out->push_back({target.affine_quantization.size, target.affine_quantization.align, pointers, pointers});
    out->push_back({4 + 4 * static_cast<uint32_t>(t.quantization->scale.size()), 4, 0, 0});  // TfLiteIntArray
  }
}

bool TypeMatches(const model::Model& m, size_t s, size_t i, const std::string& types) {
  const model::Tensor* in0 = OpTensor(m, s, i, 0);
  if (in0 == nullptr) return false;
  const std::string name = model::TensorTypeName(in0->type);
  size_t start = 0;
  while (start <= types.size()) {
    const size_t comma = types.find(',', start);
    const std::string t = types.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (t == name) return true;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return false;
}

// Evaluates a PrepareTempSpec string against one operator.
Status PrepareTemp(const model::Model& m, size_t s, size_t i, const char* spec, const Target& target, OpAllocation* a) {
  const model::Operator& op = m.subgraphs[s].operators[i];
  a->temp_before_persistent = SIZE_MAX;
  size_t pos = 0;
  const std::string text = spec;
  while (pos < text.size()) {
    const size_t end = std::min(text.find(' ', pos), text.size());
    std::string token = text.substr(pos, end - pos);
    pos = end + 1;
    if (token.empty()) continue;
    const size_t q = token.find('?');
    if (q != std::string::npos) {
      if (!TypeMatches(m, s, i, token.substr(q + 1))) continue;
      token = token.substr(0, q);
    }
    if (token == "P") {
      a->temp_before_persistent = a->prepare_temp.size();
      continue;
    }
    if (token.size() < 2 || (token[0] != 'i' && token[0] != 'o')) return Internal("bad temp spec '" + text + "'");
    const bool output = token[0] == 'o';
    const std::vector<int32_t>& list = output ? op.outputs : op.inputs;
    size_t first = 0, last = list.size();
    if (token[1] != '*') {
      const bool open = token.back() == '+';
      first = static_cast<size_t>(std::stoul(token.substr(1, token.size() - 1 - (open ? 1 : 0))));
      last = open ? std::max(first, list.size()) : first + 1;
    }
    for (size_t k = first; k < last && k < list.size(); ++k) {
      if (list[k] < 0) continue;  // omitted optional input: GetTensorIndex < 0, nothing allocated
      AddTempTensor(m.subgraphs[s].tensors[static_cast<size_t>(list[k])], target, &a->prepare_temp);
    }
  }
  if (a->temp_before_persistent == SIZE_MAX) a->temp_before_persistent = a->prepare_temp.size();
  return Status::Ok();
}

}  // namespace

const KernelEntry* FindKernelEntry(const std::string& op_name) {
  static const auto* index = [] {
    auto* map = new std::unordered_map<std::string, const KernelEntry*>();
    for (const KernelEntry& e : KernelTable()) (*map)[e.op] = &e;
    return map;
  }();
  auto it = index->find(op_name);
  return it == index->end() ? nullptr : it->second;
}

Result<OpAllocation> EvaluateKernel(const model::Model& model, size_t subgraph, size_t op, const Target& target) {
  const std::string& name = model.code_of(model.subgraphs[subgraph].operators[op]).name;
  const KernelEntry* entry = FindKernelEntry(name);
  if (entry == nullptr) {
    return Unsupported(OpWhere(model, subgraph, op) + ": no kernel for '" + name + "' in the TFLM kernel table");
  }
  const int abi = static_cast<int>(target.abi);
  OpAllocation a;
  a.options = {entry->options_size[abi], entry->options_align[abi]};
  a.init_bytes = entry->init_bytes[abi];
  auto extra = InitExtraBytes(model, subgraph, op, entry->init_rule, target);
  if (!extra.ok()) return extra.status();
  a.init_extra_bytes = std::move(*extra);
  auto prep = PrepareBytes(model, subgraph, op, *entry, target);
  if (!prep.ok()) return prep.status();
  a.prepare_bytes = std::move(*prep);
  a.prepare_write.assign(a.prepare_bytes.size(), OpAllocation::Write::kWritten);
  if (entry->prepare == PrepareRule::kBatchMatMul && !a.prepare_write.empty()) {
    // [quantization], then per transposed operand {eval tensor, dims, data (filled at Invoke)},
    // then the output dims copy, written last.
    for (size_t k = a.prepare_write.size() % 3 == 2 ? 3 : 2; k + 1 < a.prepare_write.size(); k += 3) {
      a.prepare_write[k] = OpAllocation::Write::kUnwritten;
    }
    a.prepare_write.back() = OpAllocation::Write::kWrittenLast;
  }
  auto scratch = ScratchBytes(model, subgraph, op, entry->scratch, target);
  if (!scratch.ok()) return scratch.status();
  a.scratch_bytes = std::move(*scratch);
  const char* temp = PrepareTempSpec(name);
  a.temp_verified = temp != nullptr;
  if (Status st = PrepareTemp(model, subgraph, op, temp != nullptr ? temp : kUnverifiedTempSpec, target, &a); !st.ok())
    return st;
  // No microcontroller arena comes near this; a larger figure means absurd shapes or options.
  constexpr uint64_t kMaxKernelBuffer = uint64_t{1} << 40;
  for (const auto* list : {&a.init_extra_bytes, &a.prepare_bytes, &a.scratch_bytes}) {
    for (uint64_t bytes : *list) {
      if (bytes > kMaxKernelBuffer) {
        return InvalidArgument(OpWhere(model, subgraph, op) + ": a kernel buffer of " +
                               (bytes == UINT64_MAX ? std::string("more than 2^64") : std::to_string(bytes)) +
                               " bytes (shapes or options out of range)");
      }
    }
  }
  return a;
}

namespace {

// The line TFLM's interpreter adds after a kernel's own message.
std::string NodeFailed(std::string op, const std::string& index, bool at_invoke) {
  if (op.rfind("CUSTOM:", 0) == 0) op = op.substr(7);
  return "Node " + op + " (number " + index + ") failed to " + (at_invoke ? "invoke" : "prepare") + " with status 1";
}

}  // namespace

TypeVerdict CheckKernelTypes(const model::Model& m, size_t s, size_t i, const KernelEntry& entry) {
  const model::Tensor* in0 = OpTensor(m, s, i, 0);
  const std::string index = std::to_string(i);
  auto type_name = [](const model::Tensor* t) { return std::string(model::TensorTypeName(t->type)); };
  switch (entry.types) {
    case TypeRule::kNone: return {};
    case TypeRule::kConvInputFilter:
    case TypeRule::kFcInputFilter: {
      const model::Tensor* filter = OpTensor(m, s, i, 1);
      if (in0 == nullptr || filter == nullptr) return {};
      const TensorType a = in0->type, f = filter->type;
      const bool ok = (a == TensorType::kFloat32 && f == TensorType::kFloat32) ||
                      (a == TensorType::kInt16 && f == TensorType::kInt8) ||
                      (a == TensorType::kInt8 && (f == TensorType::kInt8 || f == TensorType::kInt4));
      if (ok) return {};
      if (entry.types == TypeRule::kFcInputFilter) {
        return {"Input type: " + type_name(in0) + " with filter type: " + type_name(filter) + " not supported. | " +
                    NodeFailed(entry.op, index, false),
                false};
      }
      return {"conv_common.cc Hybrid models are not supported on TFLite Micro. (input " + type_name(in0) + ", filter " +
                  type_name(filter) + ") | " + NodeFailed(entry.op, index, false),
              false};
    }
    case TypeRule::kDepthwiseInputFilter: {
      // depthwise_conv.cc Eval (its Prepare checks no types); float32 input reads any filter.
      const model::Tensor* filter = OpTensor(m, s, i, 1);
      if (in0 == nullptr || filter == nullptr) return {};
      const TensorType a = in0->type, f = filter->type;
      if (a == TensorType::kFloat32 || (a == TensorType::kInt8 && (f == TensorType::kInt8 || f == TensorType::kInt4)) ||
          (a == TensorType::kInt16 && f == TensorType::kInt8)) {
        return {};
      }
      if (a != TensorType::kInt8 && a != TensorType::kInt16) {
        return {"Input type " + type_name(in0) + " (" + std::to_string(TfLiteTypeCode(a)) + ") not supported. | " +
                    NodeFailed(entry.op, index, true),
                true};
      }
      return {"Filter type " + type_name(filter) + " (" + std::to_string(TfLiteTypeCode(f)) + ") for input type " +
                  type_name(in0) + " not supported. | " + NodeFailed(entry.op, index, true),
              true};
    }
    case TypeRule::kTransposeConvInputFilter: {
      // TRANSPOSE_CONV's inputs: output_shape, filter, input (index 2).
      const model::Tensor* filter = OpTensor(m, s, i, 1);
      const model::Tensor* input = OpTensor(m, s, i, 2);
      if (filter == nullptr || input == nullptr) return {};
      if (input->type == filter->type || (input->type == TensorType::kInt16 && filter->type == TensorType::kInt8)) {
        return {};
      }
      return {"transpose_conv.cc Hybrid models are not supported on TFLite Micro. (input " + type_name(input) +
                  ", filter " + type_name(filter) + ") | " + NodeFailed(entry.op, index, false),
              false};
    }
    case TypeRule::kAllowedTypes: {
      const TypeCheck* check = &entry.check;
      const model::Tensor* t = check->output ? OpTensor(m, s, i, 0, true) : in0;
      if (t == nullptr || (check->allowed >> static_cast<uint32_t>(t->type) & 1u) != 0) {
        if (entry.then_check.allowed == 0) return {};
        check = &entry.then_check;
        t = check->output ? OpTensor(m, s, i, 0, true) : in0;
        if (t == nullptr || (check->allowed >> static_cast<uint32_t>(t->type) & 1u) != 0) return {};
      }
      std::string message = check->message;
      auto substitute = [&message](const std::string& key, const std::string& value) {
        for (size_t at = message.find(key); at != std::string::npos; at = message.find(key, at + value.size())) {
          message.replace(at, key.size(), value);
        }
      };
      substitute("{type}", type_name(t));
      substitute("{code}", std::to_string(TfLiteTypeCode(t->type)));
      const std::string node = NodeFailed(entry.op, index, check->at_invoke);
      return {message.empty() ? node : message + " | " + node, check->at_invoke};
    }
    case TypeRule::kFillConstantDims: {
      if (in0 == nullptr || in0->has_data) return {};
      return {"fill.cc Non-constant >dims< tensor is not supported | " + NodeFailed(entry.op, index, false), false};
    }
  }
  return {};
}

}  // namespace arenaplan::tflm
