// Evaluates kernel-table rows against one operator: O(inputs + outputs + rank) per op.
#include "tflm/kernels.h"

#include <algorithm>
#include <unordered_map>

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
  for (int32_t d : t.shape) n *= static_cast<uint64_t>(d < 0 ? 0 : d);
  return n;
}

Result<uint64_t> Dim(const model::Model& m, size_t s, size_t i, const model::Tensor* t, size_t dim,
                     const char* what) {
  if (t == nullptr || dim >= t->shape.size() || t->shape[dim] < 0) {
    return InvalidArgument(OpWhere(m, s, i) + ": " + what + " has no dimension " + std::to_string(dim));
  }
  return static_cast<uint64_t>(t->shape[dim]);
}

Result<std::vector<uint64_t>> PrepareBytes(const model::Model& m, size_t s, size_t i, PrepareRule rule) {
  switch (rule) {
    case PrepareRule::kNone:
      return std::vector<uint64_t>{};
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
      return std::vector<uint64_t>{4 + 4 * static_cast<uint64_t>(out->shape.size())};
    }
  }
  return Internal("unknown prepare rule");
}

Result<std::vector<uint64_t>> ScratchBytes(const model::Model& m, size_t s, size_t i, ScratchRule rule) {
  switch (rule) {
    case ScratchRule::kNone:
      return std::vector<uint64_t>{};
    case ScratchRule::kTransposeConv: {
      const model::Tensor* out = OpTensor(m, s, i, 0, true);
      if (out == nullptr) return InvalidArgument(OpWhere(m, s, i) + ": no output tensor");
      if (out->type == TensorType::kInt16) return std::vector<uint64_t>{8 * Elements(*out)};
      if (out->type == TensorType::kInt8) return std::vector<uint64_t>{4 * Elements(*out)};
      return std::vector<uint64_t>{};
    }
    case ScratchRule::kMean: {
      const model::Tensor* in = OpTensor(m, s, i, 0);
      const model::Tensor* axis = OpTensor(m, s, i, 1);
      const model::Tensor* out = OpTensor(m, s, i, 0, true);
      if (in == nullptr || axis == nullptr || out == nullptr) {
        return InvalidArgument(OpWhere(m, s, i) + ": needs input, axis and output tensors");
      }
      std::vector<uint64_t> r;
      if (in->type == TensorType::kInt8 || in->type == TensorType::kInt16) r.push_back(4 * Elements(*out));
      const uint64_t axes = Elements(*axis) == 0 ? 1 : Elements(*axis);
      r.push_back(4 * axes);
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
      return std::vector<uint64_t>{4 * *batch * *filters, 4 * *batch * units};
    }
    case ScratchRule::kLstm: {
      const model::Tensor* in = OpTensor(m, s, i, 0);
      auto cells = Dim(m, s, i, OpTensor(m, s, i, 1), 0, "input_to_input weights");
      auto batch = Dim(m, s, i, in, 0, "input");
      if (!cells.ok()) return cells.status();
      if (!batch.ok()) return batch.status();
      const bool integer = in->type == TensorType::kInt8 || in->type == TensorType::kInt16 ||
                           in->type == TensorType::kUInt8;
      const uint64_t bytes = (integer ? 2 : 4) * *batch * *cells;
      return std::vector<uint64_t>(4, bytes);
    }
    case ScratchRule::kInt4FilterUnpack: {
      const model::Tensor* filter = OpTensor(m, s, i, 1);
      if (filter == nullptr || filter->type != TensorType::kInt4) return std::vector<uint64_t>{};
      return std::vector<uint64_t>{Elements(*filter)};
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
    case InitRule::kNone:
      break;
    case InitRule::kRfftState: {
      if (out->shape.empty() || out->shape.back() < 4) {
        return InvalidArgument(OpWhere(m, s, i) + ": output last dimension must hold fft_length + 2 values");
      }
      const auto scalar = model::TensorTypeBytes(out->type);
      if (!scalar) return InvalidArgument(OpWhere(m, s, i) + ": output type has no size");
      return std::vector<uint64_t>{
          KissFftrBytes(static_cast<uint64_t>(out->shape.back()) - 2, *scalar, target.pointer_bytes)};
    }
    case InitRule::kFilterBankWorkArea:
      return std::vector<uint64_t>{8 * (Elements(*out) + 1)};
    case InitRule::kSpectralSubtractionNoise:
      return std::vector<uint64_t>{4 * Elements(*out)};
  }
  return Internal("unknown init rule");
}

}  // namespace

const KernelEntry* FindKernel(const std::string& op_name) {
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
  const KernelEntry* entry = FindKernel(name);
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
  auto prep = PrepareBytes(model, subgraph, op, entry->prepare);
  if (!prep.ok()) return prep.status();
  a.prepare_bytes = std::move(*prep);
  auto scratch = ScratchBytes(model, subgraph, op, entry->scratch);
  if (!scratch.ok()) return scratch.status();
  a.scratch_bytes = std::move(*scratch);
  return a;
}

TypeVerdict CheckKernelTypes(const model::Model& m, size_t s, size_t i, const KernelEntry& entry) {
  const model::Tensor* in0 = OpTensor(m, s, i, 0);
  const std::string index = std::to_string(i);
  auto type_name = [](const model::Tensor* t) { return std::string(model::TensorTypeName(t->type)); };
  switch (entry.types) {
    case TypeRule::kNone:
      return {};
    case TypeRule::kConvInputFilter:
    case TypeRule::kFcInputFilter: {
      const model::Tensor* filter = OpTensor(m, s, i, 1);
      if (in0 == nullptr || filter == nullptr) return {};
      const TensorType a = in0->type, f = filter->type;
      const bool ok = (a == TensorType::kFloat32 && f == TensorType::kFloat32) ||
                      (a == TensorType::kInt16 && f == TensorType::kInt8) ||
                      (a == TensorType::kInt8 && (f == TensorType::kInt8 || f == TensorType::kInt4));
      if (ok) return {};
      const std::string failed = ") failed to prepare with status 1";
      if (entry.types == TypeRule::kFcInputFilter) {
        return {"Input type: " + type_name(in0) + " with filter type: " + type_name(filter) +
                    " not supported. | Node FULLY_CONNECTED (number " + index + failed,
                false};
      }
      return {"conv_common.cc Hybrid models are not supported on TFLite Micro. (input " + type_name(in0) +
                  ", filter " + type_name(filter) + ") | Node " + entry.op + " (number " + index + failed,
              false};
    }
    case TypeRule::kConcatTypes: {
      if (in0 == nullptr) return {};
      const TensorType t = in0->type;
      if (t == TensorType::kFloat32 || t == TensorType::kInt8 || t == TensorType::kInt16 ||
          t == TensorType::kInt32 || t == TensorType::kInt64 || t == TensorType::kBool) {
        return {};
      }
      return {"concatenation.cc input_type == kTfLiteFloat32 || input_type == kTfLiteInt8 || input_type == "
              "kTfLiteInt16 || input_type == kTfLiteInt32 || input_type == kTfLiteInt64 || input_type == "
              "kTfLiteBool was not true (input " + type_name(in0) + "). | Node CONCATENATION (number " + index +
                  ") failed to prepare with status 1",
              false};
    }
    case TypeRule::kFillConstantDims: {
      if (in0 == nullptr || in0->has_data) return {};
      return {"fill.cc Non-constant >dims< tensor is not supported | Node FILL (number " + index +
                  ") failed to prepare with status 1",
              false};
    }
    case TypeRule::kCastInput: {
      if (in0 == nullptr) return {};
      const TensorType t = in0->type;
      if (t == TensorType::kInt8 || t == TensorType::kInt16 || t == TensorType::kInt32 || t == TensorType::kUInt32 ||
          t == TensorType::kInt64 || t == TensorType::kFloat32) {
        return {};
      }
      return {"Input type " + type_name(in0) + " (" + std::to_string(static_cast<int>(t)) +
                  ") not supported. | Node CAST (number " + index + ") failed to invoke with status 1",
              true};
    }
    case TypeRule::kFloatOnlyAtInvoke: {
      if (in0 == nullptr || in0->type == TensorType::kFloat32) return {};
      const std::string op = entry.op;
      return {"Type '" + type_name(in0) + "' is not supported by " + op + ". | Node " + op + " (number " + index +
                  ") failed to invoke with status 1",
              true};
    }
  }
  return {};
}

}  // namespace arenaplan::tflm
