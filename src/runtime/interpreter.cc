#include "runtime/interpreter.h"

#include <cstring>

#include "flatbuffers/flatbuffers.h"
#include "runtime/resource_variables.h"
#include "runtime/subgraph_calls.h"

namespace arenaplan::rt {

namespace {

constexpr const char kOfflineName[] = "OfflineMemoryAllocation";

template <typename T>
uint32_t Size(const flatbuffers::Vector<T>* v) {
  return v != nullptr ? v->size() : 0;
}

int32_t ReadWord(const uint8_t* p, uint32_t i) {
  int32_t w;
  std::memcpy(&w, p + 4u * i, 4);  // metadata words may be unaligned; the host is little-endian
  return w;
}

// Entry 0 of an int64 vector (zero points): the verifier checks only 4-byte alignment, so a valid
// file may place it off an 8-byte boundary.
int64_t FirstInt64(const flatbuffers::Vector<int64_t>& v) {
  int64_t x;
  std::memcpy(&x, v.Data(), sizeof x);
  return x;
}

bool Overlap(const PlanBuffer& a, const PlanBuffer& b) { return !(a.first > b.last || b.first > a.last); }

// tensor_offset_ flag: the tensor points at persistent data set in prepare (VAR_HANDLE's id);
// such a tensor is never planned and its data is valid from then on.
constexpr uint32_t kPointed = 0x80000000u;

}  // namespace

Interpreter::Interpreter(const void* model, size_t model_bytes, const OpResolver& resolver, void* arena,
                         size_t arena_bytes, const InterpreterOptions& options)
    : model_bytes_(static_cast<const uint8_t*>(model)),
      model_size_(model_bytes),
      resolver_(resolver),
      options_(options),
      arena_buffer_(arena),
      arena_size_(arena_bytes) {}

const char* Interpreter::OpName(uint32_t op) const {
  if (current_ == nullptr || op >= Size(current_->operators())) return "?";
  const uint32_t code_index = current_->operators()->Get(op)->opcode_index();
  if (code_index >= num_opcodes_) return "?";
  const tfl::OperatorCode* code = model_->operator_codes()->Get(code_index);
  const int32_t builtin = BuiltinCode(*code);
  if (builtin == static_cast<int32_t>(tfl::BuiltinOperator::CUSTOM)) {
    return code->custom_code() != nullptr ? code->custom_code()->c_str() : "CUSTOM";
  }
  const char* name = tfl::EnumNameBuiltinOperator(static_cast<tfl::BuiltinOperator>(builtin));
  return (name != nullptr && name[0] != '\0') ? name : "UNKNOWN_OP";
}

StatusCode Interpreter::OpError(StatusCode code, uint32_t op, const char* fmt, ...) {
  char prefix[80];
  if (current_sg_ != 0) {
    Format(prefix, sizeof(prefix), "subgraph %u, op %u (%s): ", current_sg_, op, OpName(op));
  } else {
    Format(prefix, sizeof(prefix), "op %u (%s): ", op, OpName(op));
  }
  va_list args;
  va_start(args, fmt);
  SetErrorV(&error_, prefix, fmt, args);
  va_end(args);
  return code;
}

void Interpreter::ReportV(const char* fmt, va_list args) {
  char prefix[80];
  if (current_sg_ != 0) {
    Format(prefix, sizeof(prefix), "subgraph %u, op %u (%s): ", current_sg_, current_op_, OpName(current_op_));
  } else {
    Format(prefix, sizeof(prefix), "op %u (%s): ", current_op_, OpName(current_op_));
  }
  SetErrorV(&error_, prefix, fmt, args);
}

StatusCode Interpreter::Tail(uint32_t bytes, uint32_t align, uint32_t* field, const char* what, uint32_t* offset) {
  RT_RETURN_IF_ERROR(ArenaAllocTail(&arena_, bytes, align, offset, &error_, what));
  if (field != nullptr) *field += bytes;
  std::memset(ArenaPtr(arena_, *offset), 0, bytes);
  return StatusCode::kOk;
}

// ---------------------------------------------------------------------------------------------
// Validation: after this, every index the interpreter follows is in range and every size fits.

const uint8_t* Interpreter::ConstantData(const tfl::Tensor& t, uint32_t* size) const {
  *size = 0;
  const auto* buffers = model_->buffers();
  if (buffers == nullptr || t.buffer() >= buffers->size()) return nullptr;
  const tfl::Buffer* b = buffers->Get(t.buffer());
  if (b == nullptr) return nullptr;
  if (b->data() != nullptr && b->data()->size() > 0) {
    *size = b->data()->size();
    return b->data()->data();
  }
  if (b->offset() > 1 && b->size() > 0 && b->offset() <= model_size_ && b->size() <= model_size_ - b->offset() &&
      b->size() <= 0xFFFFFFFFu) {
    *size = static_cast<uint32_t>(b->size());
    return model_bytes_ + b->offset();
  }
  return nullptr;
}

uint32_t Interpreter::TensorBytes(const tfl::Tensor& t) const {
  uint32_t count = 0;
  const auto* shape = t.shape();
  CheckedElementCount(shape != nullptr ? shape->data() : nullptr, static_cast<int32_t>(Size(shape)), &count);
  return count * TypeSize(t.type());
}

StatusCode Interpreter::ValidateModel() {
  num_subgraphs_ = Size(model_->subgraphs());
  num_opcodes_ = Size(model_->operator_codes());
  if (num_subgraphs_ > 0xFFFFu) {  // keeps 8 * (subgraphs + 1) table bytes far from overflow
    SetError(&error_, "model has too many subgraphs (%u)", num_subgraphs_);
    return StatusCode::kUnsupported;
  }
  num_tensors_ = Size(subgraph_->tensors());
  uint64_t tensors = 0, ops = 0;
  for (uint32_t s = 0; s < num_subgraphs_; ++s) {
    tensors += Size(Subgraph(s)->tensors());
    ops += Size(Subgraph(s)->operators());
  }
  if (tensors >= kNoBuffer / 4 || ops >= kNoBuffer / 16) {
    SetError(&error_, "model has too many tensors (%llu) or ops (%llu)", static_cast<unsigned long long>(tensors),
             static_cast<unsigned long long>(ops));
    return StatusCode::kUnsupported;
  }
  total_tensors_ = static_cast<uint32_t>(tensors);
  total_ops_ = static_cast<uint32_t>(ops);
  for (uint32_t s = 0; s < num_subgraphs_; ++s) RT_RETURN_IF_ERROR(ValidateSubgraph(s));
  // Control flow: every called subgraph exists, no cycle, bounded depth (before anything runs).
  return CheckSubgraphCalls(*model_, &error_);
}

StatusCode Interpreter::ValidateSubgraph(uint32_t s) {
  const tfl::SubGraph* sg = Subgraph(s);
  const auto* tensors = sg->tensors();
  const uint32_t n = Size(tensors);
  const uint32_t num_buffers = Size(model_->buffers());
  for (uint32_t i = 0; i < n; ++i) {
    const tfl::Tensor* t = tensors->Get(i);
    const auto* shape = t->shape();
    uint32_t count = 0;
    if (!CheckedElementCount(shape != nullptr ? shape->data() : nullptr, static_cast<int32_t>(Size(shape)), &count)) {
      SetError(&error_, "subgraph %u, tensor %u: negative or too large shape", s, i);
      return StatusCode::kInvalidModel;
    }
    if (t->buffer() >= num_buffers && t->buffer() != 0) {
      SetError(&error_, "subgraph %u, tensor %u: buffer %u out of range (%u buffers)", s, i, t->buffer(), num_buffers);
      return StatusCode::kInvalidModel;
    }
    const uint32_t type_size = TypeSize(t->type());
    uint32_t data_size = 0;
    const uint8_t* data = ConstantData(*t, &data_size);
    if (data == nullptr && type_size == 0 && count > 0) {
      SetError(&error_, "subgraph %u, tensor %u: type %s not supported", s, i, TypeName(t->type()));
      return StatusCode::kUnsupported;
    }
    if (static_cast<uint64_t>(count) * type_size > 0x7FFFFFFFu) {
      SetError(&error_, "subgraph %u, tensor %u: %u elements of %u bytes is too large", s, i, count, type_size);
      return StatusCode::kUnsupported;
    }
    if (data != nullptr && type_size != 0 && data_size < count * type_size) {
      SetError(&error_, "subgraph %u, tensor %u: buffer %u holds %u bytes, shape needs %u", s, i, t->buffer(),
               data_size, count * type_size);
      return StatusCode::kInvalidModel;
    }
  }
  auto check_list = [&](const flatbuffers::Vector<int32_t>* v, const char* what) {
    for (uint32_t k = 0; k < Size(v); ++k) {
      const int32_t idx = v->Get(k);
      if (idx >= 0 && static_cast<uint32_t>(idx) < n) continue;
      SetError(&error_, "subgraph %u: %s %u refers to tensor %d (%u tensors)", s, what, k, idx, n);
      return false;
    }
    return true;
  };
  if (!check_list(sg->inputs(), "input") || !check_list(sg->outputs(), "output")) return StatusCode::kInvalidModel;
  current_sg_ = s;
  current_ = sg;
  for (uint32_t i = 0; i < Size(sg->operators()); ++i) RT_RETURN_IF_ERROR(ValidateOp(s, i));
  return StatusCode::kOk;
}

StatusCode Interpreter::ValidateOp(uint32_t s, uint32_t i) {
  const tfl::SubGraph* sg = Subgraph(s);
  const uint32_t n = Size(sg->tensors());
  const tfl::Operator* op = sg->operators()->Get(i);
  if (op->opcode_index() >= num_opcodes_) {
    SetError(&error_, "subgraph %u, op %u: opcode index %u out of range (%u operator codes)", s, i,
             op->opcode_index(), num_opcodes_);
    return StatusCode::kInvalidModel;
  }
  const auto check = [&](const flatbuffers::Vector<int32_t>* v, bool allow_omitted, const char* what) {
    for (uint32_t k = 0; k < Size(v); ++k) {
      const int32_t idx = v->Get(k);
      if ((idx == -1 && allow_omitted) || (idx >= 0 && static_cast<uint32_t>(idx) < n)) continue;
      return OpError(StatusCode::kInvalidModel, i, "%s %u refers to tensor %d (%u tensors)", what, k, idx, n);
    }
    return StatusCode::kOk;
  };
  RT_RETURN_IF_ERROR(check(op->inputs(), true, "input"));
  RT_RETURN_IF_ERROR(check(op->outputs(), false, "output"));
  for (uint32_t k = 0; k < Size(op->intermediates()); ++k) {
    const int32_t idx = op->intermediates()->Get(k);
    if (idx >= 0 && static_cast<uint32_t>(idx) < n && TensorBytes(*sg->tensors()->Get(idx)) != 0) {
      return OpError(StatusCode::kUnsupported, i, "intermediate tensor %d has a non-zero size", idx);
    }
  }
  return StatusCode::kOk;
}

const tfl::Tensor& Interpreter::TensorAt(uint32_t global) const {
  uint32_t s = 0;
  while (s + 1 < num_subgraphs_ && global >= tensor_base_[s + 1]) ++s;
  return *Subgraph(s)->tensors()->Get(global - tensor_base_[s]);
}

const KernelRegistration* Interpreter::KernelOf(uint32_t s, uint32_t op) const {
  return kernels_[Subgraph(s)->operators()->Get(op)->opcode_index()];
}

void Interpreter::SetCurrent(uint32_t s, uint32_t op) {
  current_sg_ = s;
  current_ = Subgraph(s);
  current_op_ = op;
}

// ---------------------------------------------------------------------------------------------
// Phase 1: init.

StatusCode Interpreter::Init() {
  RT_RETURN_IF_ERROR(ArenaInit(&arena_, arena_buffer_, arena_size_, &error_));
  if (model_bytes_ == nullptr || model_size_ < 8) {
    SetError(&error_, "model buffer is empty");
    return StatusCode::kInvalidModel;
  }
  flatbuffers::Verifier verifier(model_bytes_, model_size_);
  if (!tfl::VerifyModelBuffer(verifier)) {
    SetError(&error_, "model flatbuffer failed verification (%u bytes)", static_cast<uint32_t>(model_size_));
    return StatusCode::kInvalidModel;
  }
  model_ = tfl::GetModel(model_bytes_);
  if (Size(model_->subgraphs()) == 0) {
    SetError(&error_, "model has no subgraph");
    return StatusCode::kInvalidModel;
  }
  subgraph_ = model_->subgraphs()->Get(0);
  current_ = subgraph_;
  RT_RETURN_IF_ERROR(ValidateModel());
  SetCurrent(0, 0);
  uint32_t off = 0;
  if (num_subgraphs_ > 1) {
    RT_RETURN_IF_ERROR(Tail(8 * (num_subgraphs_ + 1), 4, &record_.subgraph_table_bytes, "subgraph table", &off));
  }
  // One subgraph: the four base entries live in the interpreter object, so single-subgraph models
  // keep their exact arena footprint.
  uint32_t* bases = num_subgraphs_ > 1 ? reinterpret_cast<uint32_t*>(ArenaPtr(arena_, off)) : single_bases_;
  tensor_base_ = bases;
  op_base_ = bases + num_subgraphs_ + 1;
  uint32_t tb = 0, ob = 0;
  for (uint32_t s = 0; s < num_subgraphs_; ++s) {
    tensor_base_[s] = tb;
    op_base_[s] = ob;
    tb += Size(Subgraph(s)->tensors());
    ob += Size(Subgraph(s)->operators());
  }
  tensor_base_[num_subgraphs_] = tb;
  op_base_[num_subgraphs_] = ob;
  RT_RETURN_IF_ERROR(Tail(4 * total_tensors_, 4, &record_.tensor_table_bytes, "tensor offset table", &off));
  tensor_offset_ = reinterpret_cast<uint32_t*>(ArenaPtr(arena_, off));
  for (uint32_t t = 0; t < total_tensors_; ++t) tensor_offset_[t] = kNoBuffer;
  RT_RETURN_IF_ERROR(Tail(static_cast<uint32_t>(sizeof(void*)) * num_opcodes_, alignof(void*),
                          &record_.kernel_table_bytes, "kernel table", &off));
  kernels_ = reinterpret_cast<const KernelRegistration**>(ArenaPtr(arena_, off));
  RT_RETURN_IF_ERROR(Tail(static_cast<uint32_t>(sizeof(void*)) * total_ops_, alignof(void*),
                          &record_.op_data_ptr_bytes, "op data pointers", &off));
  op_data_ = reinterpret_cast<void**>(ArenaPtr(arena_, off));
  RT_RETURN_IF_ERROR(ResolveKernels());
  return SetUpResources();
}

// TFLM's MicroResourceVariables: capacity = number of VAR_HANDLE ops (docs: golden README).
StatusCode Interpreter::SetUpResources() {
  uint32_t handles = 0;
  for (uint32_t s = 0; s < num_subgraphs_; ++s) {
    for (uint32_t i = 0; i < Size(Subgraph(s)->operators()); ++i) {
      const uint32_t c = Subgraph(s)->operators()->Get(i)->opcode_index();
      handles += BuiltinCode(*model_->operator_codes()->Get(c)) == static_cast<int32_t>(tfl::BuiltinOperator::VAR_HANDLE);
    }
  }
  if (handles == 0) return StatusCode::kOk;
  uint32_t off = 0;
  RT_RETURN_IF_ERROR(Tail(static_cast<uint32_t>(sizeof(ResourceVariable)) * handles, alignof(ResourceVariable),
                          &record_.resource_table_bytes, "resource variable table", &off));
  resources_ = reinterpret_cast<ResourceVariable*>(ArenaPtr(arena_, off));
  resource_capacity_ = handles;
  return StatusCode::kOk;
}

StatusCode Interpreter::ResolveKernels() {
  for (uint32_t c = 0; c < num_opcodes_; ++c) {
    const tfl::OperatorCode* code = model_->operator_codes()->Get(c);
    kernels_[c] = FindKernel(resolver_, BuiltinCode(*code),
                             code->custom_code() != nullptr ? code->custom_code()->c_str() : nullptr);
  }
  for (uint32_t s = 0; s < num_subgraphs_; ++s) {
    for (uint32_t i = 0; i < Size(Subgraph(s)->operators()); ++i) {
      const KernelRegistration* k = KernelOf(s, i);
      if (k == nullptr || k->eval == nullptr) {
        SetCurrent(s, i);
        return OpError(StatusCode::kUnsupported, i, "op not supported by this runtime (no kernel registered)");
      }
    }
  }
  SetCurrent(0, 0);
  return StatusCode::kOk;
}

// ---------------------------------------------------------------------------------------------
// Phase 2: prepare.

StatusCode Interpreter::PrepareAll() {
  // TFLM prepares subgraph 0, then 1, ... (scratch requests are numbered in this order).
  in_prepare_ = true;
  for (uint32_t sg = 0; sg < num_subgraphs_; ++sg) {
    for (uint32_t i = 0; i < Size(Subgraph(sg)->operators()); ++i) {
      SetCurrent(sg, i);
      op_requests_ = 0;
      const KernelRegistration* k = KernelOf(sg, i);
      if (k->prepare == nullptr) continue;
      error_.text[0] = '\0';
      error_.length = 0;
      const StatusCode s = k->prepare(*this);
      if (s != StatusCode::kOk) {
        in_prepare_ = false;
        if (error_.length == 0) return OpError(s, i, "prepare failed (%s)", StatusName(s));
        return s;
      }
    }
  }
  in_prepare_ = false;
  SetCurrent(0, 0);
  return StatusCode::kOk;
}

StatusCode Interpreter::AllocatePersistent(uint32_t bytes, void** out) {
  *out = nullptr;
  if (!in_prepare_) return Fail(StatusCode::kBadState, "AllocatePersistent outside prepare");
  uint32_t off = 0;
  ErrorText detail;
  const StatusCode s = ArenaAllocTail(&arena_, bytes, kArenaAlignment, &off, &detail, "persistent op data");
  if (s != StatusCode::kOk) return Fail(s, "%s", detail.text);
  record_.op_data_bytes += bytes;
  *out = ArenaPtr(arena_, off);
  return StatusCode::kOk;
}

StatusCode Interpreter::RequestScratch(uint32_t bytes, int32_t* index) {
  if (!in_prepare_) return Fail(StatusCode::kBadState, "RequestScratch outside prepare");
  if (op_requests_ >= kMaxScratchPerNode) {
    return Fail(StatusCode::kUnsupported, "more than %u scratch requests", kMaxScratchPerNode);
  }
  if (bytes > 0x7FFFFFF0u) return Fail(StatusCode::kArenaFull, "scratch request of %u bytes", bytes);
  // Requests wait in the head (unused until planning), growing by one entry each.
  ErrorText detail;
  const uint32_t need = static_cast<uint32_t>(sizeof(ScratchRequest)) * (num_requests_ + 1);
  const StatusCode s = ArenaSetHead(&arena_, need, &detail, "scratch request list");
  if (s != StatusCode::kOk) return Fail(s, "%s", detail.text);
  ScratchRequest* list = reinterpret_cast<ScratchRequest*>(arena_.base);
  list[num_requests_] = ScratchRequest{bytes, op_base_[current_sg_] + current_op_};  // global op index
  *index = static_cast<int32_t>(num_requests_++);
  ++op_requests_;
  return StatusCode::kOk;
}

void* Interpreter::GetScratch(int32_t index) {
  if (scratch_offset_ == nullptr || index < 0 || static_cast<uint32_t>(index) >= num_requests_) return nullptr;
  return ArenaPtr(arena_, scratch_offset_[index]);
}

// ---------------------------------------------------------------------------------------------
// Phase 3: finish (plan and commit).

StatusCode Interpreter::ReadOfflinePlan(const uint8_t** words, uint32_t* count) {
  *words = nullptr;
  *count = 0;
  for (uint32_t m = 0; m < Size(model_->metadata()); ++m) {
    const tfl::Metadata* md = model_->metadata()->Get(m);
    if (md->name() == nullptr || std::strcmp(md->name()->c_str(), kOfflineName) != 0 ||
        md->name()->size() != sizeof(kOfflineName) - 1) {
      continue;
    }
    const auto* buffers = model_->buffers();
    const tfl::Buffer* b = md->buffer() < Size(buffers) ? buffers->Get(md->buffer()) : nullptr;
    const auto* data = b != nullptr ? b->data() : nullptr;
    if (data == nullptr || data->size() < 12) {
      SetError(&error_, "metadata %s: buffer %u missing or shorter than 12 bytes", kOfflineName, md->buffer());
      return StatusCode::kInvalidModel;
    }
    const int32_t n = ReadWord(data->data(), 2);
    uint32_t total = 0;
    for (uint32_t s = 0; s < Size(model_->subgraphs()); ++s) total += Size(model_->subgraphs()->Get(s)->tensors());
    if (n < 0 || static_cast<uint32_t>(n) != total) {
      SetError(&error_, "metadata %s: %d offsets, but the model has %u tensors", kOfflineName, n, total);
      return StatusCode::kInvalidModel;
    }
    if ((data->size() - 12) / 4 < static_cast<uint32_t>(n)) {
      SetError(&error_, "metadata %s: %d offsets declared, buffer holds %u", kOfflineName, n, (data->size() - 12) / 4);
      return StatusCode::kInvalidModel;
    }
    *words = data->data() + 12;
    *count = static_cast<uint32_t>(n);
    return StatusCode::kOk;
  }
  return StatusCode::kOk;
}

int32_t Interpreter::OfflineOffset(const uint8_t* offline, uint32_t t) const {
  return offline != nullptr ? ReadWord(offline, t) : kOnline;
}

bool Interpreter::NeedsPlanning(uint32_t t, const uint8_t* offline) const {
  if (tensor_offset_[t] != kNoBuffer && (tensor_offset_[t] & kPointed) != 0) return false;
  const tfl::Tensor& tensor = TensorAt(t);
  uint32_t size = 0;
  if (ConstantData(tensor, &size) != nullptr || TensorBytes(tensor) == 0) return false;
  return !tensor.is_variable() || OfflineOffset(offline, t) != kOnline;
}

uint32_t Interpreter::CountPlannedBuffers(const uint8_t* offline) const {
  uint32_t n = 0;
  for (uint32_t t = 0; t < total_tensors_; ++t) n += NeedsPlanning(t, offline) ? 1 : 0;
  return n + num_requests_;
}

StatusCode Interpreter::AllocateVariables(const uint8_t* offline) {
  for (uint32_t t = 0; t < total_tensors_; ++t) {
    const tfl::Tensor& tensor = TensorAt(t);
    if (!tensor.is_variable() || NeedsPlanning(t, offline) || tensor_offset_[t] != kNoBuffer) continue;
    uint32_t size = 0;
    if (ConstantData(tensor, &size) != nullptr || TensorBytes(tensor) == 0) continue;
    uint32_t off = 0;
    RT_RETURN_IF_ERROR(Tail(TensorBytes(tensor), kArenaAlignment, &record_.variable_bytes, "variable tensor", &off));
    tensor_offset_[t] = off;
  }
  return StatusCode::kOk;
}

StatusCode Interpreter::CollectBuffers(PlanBuffer* bufs, uint32_t n, const uint8_t* offline) {
  uint32_t b = 0;
  for (uint32_t t = 0; t < total_tensors_; ++t) {
    if (!NeedsPlanning(t, offline)) continue;
    const int32_t fixed = OfflineOffset(offline, t);
    if (fixed < kOnline) {
      SetError(&error_, "tensor %u (counting all subgraphs): offline offset %d is negative", t, fixed);
      return StatusCode::kInvalidModel;
    }
    bufs[b] = PlanBuffer{AlignUp16(TensorBytes(TensorAt(t))), -1, -1, fixed};
    tensor_offset_[t] = b++;  // temporarily: the plan buffer of tensor t
  }
  const ScratchRequest* req = reinterpret_cast<const ScratchRequest*>(arena_.base);
  for (uint32_t r = 0; r < num_requests_; ++r) bufs[b++] = PlanBuffer{AlignUp16(req[r].bytes), -1, -1, kOnline};
  return b == n ? StatusCode::kOk : StatusCode::kBadState;
}

StatusCode Interpreter::ApplyCompiledPlan(PlanBuffer* bufs, uint32_t n) {
  const CompiledPlan& plan = *options_.compiled_plan;
  const uint32_t per_tensor = total_tensors_ + num_requests_;
  if (plan.offsets == nullptr || (plan.count != per_tensor && plan.count != n)) {
    SetError(&error_, "compiled plan has %u offsets; expected %u (per tensor + scratch) or %u (per planned buffer)",
             plan.count, per_tensor, n);
    return StatusCode::kBadArgument;
  }
  uint32_t b = 0;
  for (uint32_t i = 0; i < plan.count; ++i) {
    const bool planned = plan.count == n || i >= total_tensors_ || NeedsPlanning(i, nullptr);
    if (!planned) continue;
    if (plan.offsets[i] < 0) {
      SetError(&error_, "compiled plan entry %u is %d for a buffer that needs memory", i, plan.offsets[i]);
      return StatusCode::kBadArgument;
    }
    bufs[b++].offset = plan.offsets[i];
  }
  // A compiled plan is trusted for nothing: two buffers live at the same time must not overlap.
  for (uint32_t i = 0; i < n; ++i) {
    if (static_cast<uint64_t>(bufs[i].offset) + bufs[i].size > plan.head_bytes) {
      SetError(&error_, "compiled plan: buffer %u ends at %u, beyond head_bytes %u", i,
               static_cast<uint32_t>(bufs[i].offset + bufs[i].size), plan.head_bytes);
      return StatusCode::kBadArgument;
    }
    for (uint32_t j = i + 1; j < n; ++j) {
      const bool apart = static_cast<uint64_t>(bufs[i].offset) + bufs[i].size <= static_cast<uint64_t>(bufs[j].offset) ||
                         static_cast<uint64_t>(bufs[j].offset) + bufs[j].size <= static_cast<uint64_t>(bufs[i].offset);
      if (Overlap(bufs[i], bufs[j]) && !apart && bufs[i].size > 0 && bufs[j].size > 0) {
        SetError(&error_, "compiled plan: buffers %u and %u are live together and overlap", i, j);
        return StatusCode::kBadArgument;
      }
    }
  }
  return StatusCode::kOk;
}

StatusCode Interpreter::Finish() {
  uint32_t off = 0;
  if (num_requests_ > 0) {
    RT_RETURN_IF_ERROR(Tail(4 * num_requests_, 4, &record_.scratch_table_bytes, "scratch table", &off));
    scratch_offset_ = reinterpret_cast<uint32_t*>(ArenaPtr(arena_, off));
  }
  const uint8_t* offline = nullptr;
  uint32_t offline_count = 0;
  RT_RETURN_IF_ERROR(ReadOfflinePlan(&offline, &offline_count));
  const uint32_t n = CountPlannedBuffers(offline);
  if (n > kMaxPlanBuffers) {
    SetError(&error_, "too many buffers to plan (%u, at most %u)", n, kMaxPlanBuffers);
    return StatusCode::kUnsupported;
  }
  uint32_t bufs_off = 0, order_off = 0, next_off = 0;
  RT_RETURN_IF_ERROR(ArenaAllocTemp(&arena_, n * static_cast<uint32_t>(sizeof(PlanBuffer)), 4, &bufs_off, &error_, "plan buffers"));
  RT_RETURN_IF_ERROR(ArenaAllocTemp(&arena_, 2 * n, 2, &order_off, &error_, "planner order"));
  RT_RETURN_IF_ERROR(ArenaAllocTemp(&arena_, 2 * n, 2, &next_off, &error_, "planner list"));
  auto* bufs = reinterpret_cast<PlanBuffer*>(ArenaPtr(arena_, bufs_off));
  RT_RETURN_IF_ERROR(CollectBuffers(bufs, n, offline));
  const uint32_t first_scratch = n - num_requests_;
  const ScratchRequest* req = reinterpret_cast<const ScratchRequest*>(arena_.base);
  MarkModelLifetimes(*model_, tensor_base_, op_base_, tensor_offset_, req, num_requests_, first_scratch, bufs);
  record_.plan_source = offline != nullptr ? "offline" : "greedy";
  if (offline == nullptr && options_.compiled_plan != nullptr) {
    RT_RETURN_IF_ERROR(ApplyCompiledPlan(bufs, n));
    record_.plan_source = "compiled";
  } else if (offline == nullptr && options_.planner == PlannerKind::kBestFit) {
    record_.plan_source = "best-fit";
  }
  uint32_t head = 0;
  RT_RETURN_IF_ERROR(PlanOnline(bufs, n, reinterpret_cast<uint16_t*>(ArenaPtr(arena_, order_off)),
                                reinterpret_cast<uint16_t*>(ArenaPtr(arena_, next_off)), options_.planner,
                                &head, &error_));
  if (options_.compiled_plan != nullptr && offline == nullptr && options_.compiled_plan->head_bytes > head) {
    head = options_.compiled_plan->head_bytes;
  }
  for (uint32_t t = 0; t < total_tensors_; ++t) {
    if (tensor_offset_[t] != kNoBuffer && NeedsPlanning(t, offline)) {
      tensor_offset_[t] = static_cast<uint32_t>(bufs[tensor_offset_[t]].offset);
    }
  }
  for (uint32_t r = 0; r < num_requests_; ++r) scratch_offset_[r] = static_cast<uint32_t>(bufs[first_scratch + r].offset);
  record_.planning_temp_bytes = arena_.temp - arena_.head;
  record_.planned_buffers = n;
  record_.scratch_requests = num_requests_;
  ArenaResetTemp(&arena_);
  RT_RETURN_IF_ERROR(ArenaSetHead(&arena_, head, &error_, "planned tensors (head)"));
  // Tail variables come last, once temp is free again, so they never add to the planning peak.
  RT_RETURN_IF_ERROR(AllocateVariables(offline));
  FillVariables();
  return StatusCode::kOk;
}

// Variables start at zero (int8: at their zero point), as TFLM's ResetVariableTensors does.
void Interpreter::FillVariables() {
  for (uint32_t t = 0; t < total_tensors_; ++t) {
    const tfl::Tensor& tensor = TensorAt(t);
    if (!tensor.is_variable() || tensor_offset_[t] == kNoBuffer || (tensor_offset_[t] & kPointed) != 0) continue;
    int value = 0;
    if (tensor.type() == TensorType::INT8 && tensor.quantization() != nullptr &&
        Size(tensor.quantization()->zero_point()) > 0) {
      value = static_cast<int>(FirstInt64(*tensor.quantization()->zero_point()));
    }
    std::memset(ArenaPtr(arena_, tensor_offset_[t]), value, TensorBytes(tensor));
  }
}

StatusCode Interpreter::AllocateTensors() {
  if (state_ != State::kCreated) {
    SetError(&error_, "AllocateTensors called twice");
    return StatusCode::kBadState;
  }
  state_ = State::kFailed;
  RT_RETURN_IF_ERROR(Init());
  RT_RETURN_IF_ERROR(PrepareAll());
  RT_RETURN_IF_ERROR(Finish());
  record_.head_bytes = arena_.head;
  record_.tail_bytes = ArenaTailBytes(arena_);
  record_.min_arena_bytes = ArenaMinimumBytes(arena_);
  error_.text[0] = '\0';
  error_.length = 0;
  state_ = State::kAllocated;
  return StatusCode::kOk;
}

StatusCode Interpreter::Invoke() {
  if (state_ != State::kAllocated) {
    SetError(&error_, "Invoke before a successful AllocateTensors");
    return StatusCode::kBadState;
  }
  depth_ = 0;
  const StatusCode s = RunSubgraph(0);
  SetCurrent(0, 0);
  return s;
}

StatusCode Interpreter::RunSubgraph(uint32_t sg) {
  for (uint32_t i = 0; i < Size(Subgraph(sg)->operators()); ++i) {
    SetCurrent(sg, i);
    const KernelRegistration* k = KernelOf(sg, i);
    error_.length = 0;
    const StatusCode s = k->eval(*this);
    if (s != StatusCode::kOk) {
      SetCurrent(sg, i);
      if (error_.length == 0) return OpError(s, i, "eval failed (%s)", StatusName(s));
      return s;
    }
  }
  return StatusCode::kOk;
}

StatusCode Interpreter::InvokeSubgraph(uint32_t s) {
  if (state_ != State::kAllocated || in_prepare_) return Fail(StatusCode::kBadState, "InvokeSubgraph outside eval");
  if (s >= num_subgraphs_) return Fail(StatusCode::kBadArgument, "subgraph %u out of range (%u)", s, num_subgraphs_);
  // Calls were checked acyclic and shallow at AllocateTensors; this bound is the last guard.
  if (depth_ >= kMaxSubgraphDepth) return Fail(StatusCode::kUnsupported, "subgraph calls nested deeper than %u", kMaxSubgraphDepth);
  const uint32_t sg = current_sg_, op = current_op_;
  ++depth_;
  const StatusCode st = RunSubgraph(s);
  --depth_;
  if (st != StatusCode::kOk) return st;  // current_ names the failing op for the message
  SetCurrent(sg, op);
  return StatusCode::kOk;
}

StatusCode Interpreter::Reset() {
  if (state_ != State::kAllocated) {
    SetError(&error_, "Reset before a successful AllocateTensors");
    return StatusCode::kBadState;
  }
  FillVariables();
  for (uint32_t r = 0; r < num_resources_; ++r) {
    if (resources_[r].bytes > 0) std::memset(ArenaPtr(arena_, resources_[r].offset), resources_[r].fill, resources_[r].bytes);
  }
  for (uint32_t sg = 0; sg < num_subgraphs_; ++sg) {
    for (uint32_t i = 0; i < Size(Subgraph(sg)->operators()); ++i) {
      const KernelRegistration* k = KernelOf(sg, i);
      if (k->reset == nullptr) continue;
      SetCurrent(sg, i);
      error_.length = 0;
      const StatusCode s = k->reset(*this);
      if (s != StatusCode::kOk) {
        if (error_.length == 0) return OpError(s, i, "reset failed (%s)", StatusName(s));
        return s;
      }
    }
  }
  SetCurrent(0, 0);
  return StatusCode::kOk;
}

// ---------------------------------------------------------------------------------------------
// Control flow and resource variables (KernelContext).

uint32_t Interpreter::subgraph_inputs_size(uint32_t s) const {
  return s < num_subgraphs_ ? Size(Subgraph(s)->inputs()) : 0;
}

uint32_t Interpreter::subgraph_outputs_size(uint32_t s) const {
  return s < num_subgraphs_ ? Size(Subgraph(s)->outputs()) : 0;
}

bool Interpreter::GetSubgraphInput(uint32_t s, uint32_t k, TensorView* out) {
  *out = TensorView{};
  if (k >= subgraph_inputs_size(s)) return false;
  *out = View(s, Subgraph(s)->inputs()->Get(k));
  return true;
}

bool Interpreter::GetSubgraphOutput(uint32_t s, uint32_t k, TensorView* out) {
  *out = TensorView{};
  if (k >= subgraph_outputs_size(s)) return false;
  *out = View(s, Subgraph(s)->outputs()->Get(k));
  return true;
}

StatusCode Interpreter::ResourceId(const char* container, const char* shared_name, int32_t* id) {
  *id = FindOrCreateResource(resources_, &num_resources_, resource_capacity_, container, shared_name);
  if (*id < 0) {
    return Fail(StatusCode::kUnsupported, "resource variable table full (%u entries, one per VAR_HANDLE)", resource_capacity_);
  }
  return StatusCode::kOk;
}

StatusCode Interpreter::AllocateResource(int32_t id, uint32_t bytes, int8_t fill) {
  if (!in_prepare_) return Fail(StatusCode::kBadState, "AllocateResource outside prepare");
  if (id < 0 || static_cast<uint32_t>(id) >= num_resources_) {
    return Fail(StatusCode::kInvalidModel, "resource variable %d does not exist (%u variables)", id, num_resources_);
  }
  ResourceVariable& v = resources_[id];
  if (v.bytes > 0 || bytes == 0) return StatusCode::kOk;  // the first ASSIGN_VARIABLE sizes it (TFLM)
  uint32_t off = 0;
  ErrorText detail;
  const StatusCode s = ArenaAllocTail(&arena_, bytes, kArenaAlignment, &off, &detail, "resource variable");
  if (s != StatusCode::kOk) return Fail(s, "%s", detail.text);
  record_.resource_bytes += bytes;
  v.offset = off;
  v.bytes = bytes;
  v.fill = fill;
  std::memset(ArenaPtr(arena_, off), fill, bytes);
  return StatusCode::kOk;
}

StatusCode Interpreter::GetResource(int32_t id, uint8_t** data, uint32_t* bytes) {
  *data = nullptr;
  *bytes = 0;
  if (id < 0 || static_cast<uint32_t>(id) >= num_resources_) {
    return Fail(StatusCode::kInvalidModel, "resource variable %d does not exist (%u variables)", id, num_resources_);
  }
  if (resources_[id].bytes > 0) {
    *data = ArenaPtr(arena_, resources_[id].offset);
    *bytes = resources_[id].bytes;
  }
  return StatusCode::kOk;
}

StatusCode Interpreter::PointOutputAt(uint32_t k, void* data) {
  if (!in_prepare_) return Fail(StatusCode::kBadState, "PointOutputAt outside prepare");
  if (k >= num_outputs()) return Fail(StatusCode::kInvalidModel, "output %u is missing", k);
  const auto* p = static_cast<const uint8_t*>(data);
  if (p < arena_.base + arena_.tail || p >= arena_.base + arena_.size) {
    return Fail(StatusCode::kBadArgument, "output %u must point into persistent arena memory", k);
  }
  const uint32_t t = tensor_base_[current_sg_] + static_cast<uint32_t>(op()->outputs()->Get(k));
  tensor_offset_[t] = static_cast<uint32_t>(p - arena_.base) | kPointed;
  return StatusCode::kOk;
}

// ---------------------------------------------------------------------------------------------
// Views.

TensorView Interpreter::View(uint32_t s, int32_t index) const {
  TensorView v;
  if (model_ == nullptr || tensor_base_ == nullptr || s >= num_subgraphs_ || index < 0 ||
      static_cast<uint32_t>(index) >= Size(Subgraph(s)->tensors())) {
    return v;
  }
  const tfl::Tensor& t = *Subgraph(s)->tensors()->Get(static_cast<uint32_t>(index));
  const uint32_t off = tensor_offset_[tensor_base_[s] + static_cast<uint32_t>(index)];
  v.type = t.type();
  v.rank = static_cast<int32_t>(Size(t.shape()));
  v.dims = t.shape() != nullptr ? t.shape()->data() : nullptr;
  uint32_t size = 0;
  const uint8_t* constant = ConstantData(t, &size);
  if (constant != nullptr) {
    v.data = const_cast<uint8_t*>(constant);  // kernels never write inputs; the model stays read-only
    v.bytes = TypeSize(t.type()) != 0 ? TensorBytes(t) : size;
  } else {
    v.bytes = TensorBytes(t);
    // Offsets are final only after Finish; during prepare non-constant data is not valid yet.
    if (off != kNoBuffer && (state_ == State::kAllocated || (off & kPointed) != 0)) {
      v.data = ArenaPtr(arena_, off & ~kPointed);
    }
  }
  const tfl::QuantizationParameters* q = t.quantization();
  if (q != nullptr && Size(q->scale()) > 0) {
    v.scale = q->scale()->Get(0);
    v.scales = q->scale()->data();
    v.num_channels = static_cast<int32_t>(q->scale()->size());
    if (Size(q->zero_point()) > 0) {
      v.zero_point = static_cast<int32_t>(FirstInt64(*q->zero_point()));
    }
    v.quantized_dimension = q->quantized_dimension();
  }
  return v;
}

uint32_t Interpreter::inputs_size() const { return subgraph_ != nullptr ? Size(subgraph_->inputs()) : 0; }
uint32_t Interpreter::outputs_size() const { return subgraph_ != nullptr ? Size(subgraph_->outputs()) : 0; }

TensorView Interpreter::input(uint32_t i) const {
  if (i >= inputs_size()) return TensorView{};
  return View(0, subgraph_->inputs()->Get(i));
}

TensorView Interpreter::output(uint32_t i) const {
  if (i >= outputs_size()) return TensorView{};
  return View(0, subgraph_->outputs()->Get(i));
}

TensorView Interpreter::tensor(uint32_t index) const { return View(0, static_cast<int32_t>(index)); }

TensorView Interpreter::subgraph_tensor(uint32_t subgraph, uint32_t index) const {
  if (index > 0x7FFFFFFFu) return TensorView{};
  return View(subgraph, static_cast<int32_t>(index));
}

int32_t Interpreter::op_version() const {
  const uint32_t c = op()->opcode_index();
  return model_->operator_codes()->Get(c)->version();
}

const tfl::Operator* Interpreter::op() const { return current_->operators()->Get(current_op_); }
uint32_t Interpreter::num_inputs() const { return Size(op()->inputs()); }
uint32_t Interpreter::num_outputs() const { return Size(op()->outputs()); }

bool Interpreter::GetInput(uint32_t k, TensorView* out) {
  *out = TensorView{};
  if (k >= num_inputs()) return false;
  const int32_t idx = op()->inputs()->Get(k);
  if (idx < 0) return false;
  *out = View(current_sg_, idx);
  return true;
}

bool Interpreter::GetOutput(uint32_t k, TensorView* out) {
  *out = TensorView{};
  if (k >= num_outputs()) return false;
  *out = View(current_sg_, op()->outputs()->Get(k));
  return true;
}

}  // namespace arenaplan::rt
