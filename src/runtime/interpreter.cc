#include "runtime/interpreter.h"

#include <cstring>

#include "flatbuffers/flatbuffers.h"

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

bool Overlap(const PlanBuffer& a, const PlanBuffer& b) { return !(a.first > b.last || b.first > a.last); }

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
  if (subgraph_ == nullptr || op >= num_ops_) return "?";
  const uint32_t code_index = subgraph_->operators()->Get(op)->opcode_index();
  if (code_index >= num_opcodes_) return "?";
  const tfl::OperatorCode* code = model_->operator_codes()->Get(code_index);
  const int32_t builtin = static_cast<int32_t>(code->builtin_code()) > code->deprecated_builtin_code()
                              ? static_cast<int32_t>(code->builtin_code())
                              : code->deprecated_builtin_code();
  if (builtin == static_cast<int32_t>(tfl::BuiltinOperator::CUSTOM)) {
    return code->custom_code() != nullptr ? code->custom_code()->c_str() : "CUSTOM";
  }
  const char* name = tfl::EnumNameBuiltinOperator(static_cast<tfl::BuiltinOperator>(builtin));
  return (name != nullptr && name[0] != '\0') ? name : "UNKNOWN_OP";
}

Status Interpreter::OpError(Status code, uint32_t op, const char* fmt, ...) {
  char prefix[64];
  Format(prefix, sizeof(prefix), "op %u (%s): ", op, OpName(op));
  va_list args;
  va_start(args, fmt);
  SetErrorV(&error_, prefix, fmt, args);
  va_end(args);
  return code;
}

void Interpreter::ReportV(const char* fmt, va_list args) {
  char prefix[64];
  Format(prefix, sizeof(prefix), "op %u (%s): ", current_op_, OpName(current_op_));
  SetErrorV(&error_, prefix, fmt, args);
}

Status Interpreter::Tail(uint32_t bytes, uint32_t align, uint32_t* field, const char* what, uint32_t* offset) {
  RT_RETURN_IF_ERROR(ArenaAllocTail(&arena_, bytes, align, offset, &error_, what));
  if (field != nullptr) *field += bytes;
  std::memset(ArenaPtr(arena_, *offset), 0, bytes);
  return Status::kOk;
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

Status Interpreter::ValidateModel() {
  const auto* tensors = subgraph_->tensors();
  num_tensors_ = Size(tensors);
  num_ops_ = Size(subgraph_->operators());
  num_opcodes_ = Size(model_->operator_codes());
  if (num_tensors_ >= kNoBuffer / 2) {
    SetError(&error_, "subgraph 0 has too many tensors (%u)", num_tensors_);
    return Status::kUnsupported;
  }
  const uint32_t num_buffers = Size(model_->buffers());
  for (uint32_t i = 0; i < num_tensors_; ++i) {
    const tfl::Tensor* t = tensors->Get(i);
    const auto* shape = t->shape();
    uint32_t count = 0;
    if (!CheckedElementCount(shape != nullptr ? shape->data() : nullptr, static_cast<int32_t>(Size(shape)), &count)) {
      SetError(&error_, "subgraph 0, tensor %u: negative or too large shape", i);
      return Status::kInvalidModel;
    }
    if (t->buffer() >= num_buffers && t->buffer() != 0) {
      SetError(&error_, "subgraph 0, tensor %u: buffer %u out of range (%u buffers)", i, t->buffer(), num_buffers);
      return Status::kInvalidModel;
    }
    const uint32_t type_size = TypeSize(t->type());
    uint32_t data_size = 0;
    const uint8_t* data = ConstantData(*t, &data_size);
    if (data == nullptr && type_size == 0 && count > 0) {
      SetError(&error_, "subgraph 0, tensor %u: type %s not supported", i, TypeName(t->type()));
      return Status::kUnsupported;
    }
    if (static_cast<uint64_t>(count) * type_size > 0x7FFFFFFFu) {
      SetError(&error_, "subgraph 0, tensor %u: %u elements of %u bytes is too large", i, count, type_size);
      return Status::kUnsupported;
    }
    if (data != nullptr && type_size != 0 && data_size < count * type_size) {
      SetError(&error_, "subgraph 0, tensor %u: buffer %u holds %u bytes, shape needs %u", i, t->buffer(),
               data_size, count * type_size);
      return Status::kInvalidModel;
    }
  }
  auto check_list = [&](const flatbuffers::Vector<int32_t>* v, bool allow_omitted, const char* what) {
    for (uint32_t k = 0; k < Size(v); ++k) {
      const int32_t idx = v->Get(k);
      if ((idx == -1 && allow_omitted) || (idx >= 0 && static_cast<uint32_t>(idx) < num_tensors_)) continue;
      SetError(&error_, "subgraph 0: %s %u refers to tensor %d (%u tensors)", what, k, idx, num_tensors_);
      return false;
    }
    return true;
  };
  if (!check_list(subgraph_->inputs(), false, "input") || !check_list(subgraph_->outputs(), false, "output")) {
    return Status::kInvalidModel;
  }
  for (uint32_t i = 0; i < num_ops_; ++i) RT_RETURN_IF_ERROR(ValidateOp(i));
  return Status::kOk;
}

Status Interpreter::ValidateOp(uint32_t i) {
  const tfl::Operator* op = subgraph_->operators()->Get(i);
  if (op->opcode_index() >= num_opcodes_) {
    SetError(&error_, "op %u: opcode index %u out of range (%u operator codes)", i, op->opcode_index(),
             num_opcodes_);
    return Status::kInvalidModel;
  }
  const auto check = [&](const flatbuffers::Vector<int32_t>* v, bool allow_omitted, const char* what) {
    for (uint32_t k = 0; k < Size(v); ++k) {
      const int32_t idx = v->Get(k);
      if ((idx == -1 && allow_omitted) || (idx >= 0 && static_cast<uint32_t>(idx) < num_tensors_)) continue;
      return OpError(Status::kInvalidModel, i, "%s %u refers to tensor %d (%u tensors)", what, k, idx, num_tensors_);
    }
    return Status::kOk;
  };
  RT_RETURN_IF_ERROR(check(op->inputs(), true, "input"));
  RT_RETURN_IF_ERROR(check(op->outputs(), false, "output"));
  for (uint32_t k = 0; k < Size(op->intermediates()); ++k) {
    const int32_t idx = op->intermediates()->Get(k);
    if (idx >= 0 && static_cast<uint32_t>(idx) < num_tensors_ && TensorBytes(*subgraph_->tensors()->Get(idx)) != 0) {
      return OpError(Status::kUnsupported, i, "intermediate tensor %d has a non-zero size", idx);
    }
  }
  return Status::kOk;
}

// ---------------------------------------------------------------------------------------------
// Phase 1: init.

Status Interpreter::Init() {
  RT_RETURN_IF_ERROR(ArenaInit(&arena_, arena_buffer_, arena_size_, &error_));
  if (model_bytes_ == nullptr || model_size_ < 8) {
    SetError(&error_, "model buffer is empty");
    return Status::kInvalidModel;
  }
  flatbuffers::Verifier verifier(model_bytes_, model_size_);
  if (!tfl::VerifyModelBuffer(verifier)) {
    SetError(&error_, "model flatbuffer failed verification (%u bytes)", static_cast<uint32_t>(model_size_));
    return Status::kInvalidModel;
  }
  model_ = tfl::GetModel(model_bytes_);
  if (Size(model_->subgraphs()) == 0) {
    SetError(&error_, "model has no subgraph");
    return Status::kInvalidModel;
  }
  subgraph_ = model_->subgraphs()->Get(0);
  RT_RETURN_IF_ERROR(ValidateModel());
  uint32_t off = 0;
  RT_RETURN_IF_ERROR(Tail(4 * num_tensors_, 4, &record_.tensor_table_bytes, "tensor offset table", &off));
  tensor_offset_ = reinterpret_cast<uint32_t*>(ArenaPtr(arena_, off));
  for (uint32_t t = 0; t < num_tensors_; ++t) tensor_offset_[t] = kNoBuffer;
  RT_RETURN_IF_ERROR(Tail(static_cast<uint32_t>(sizeof(void*)) * num_opcodes_, alignof(void*),
                          &record_.kernel_table_bytes, "kernel table", &off));
  kernels_ = reinterpret_cast<const KernelRegistration**>(ArenaPtr(arena_, off));
  RT_RETURN_IF_ERROR(Tail(static_cast<uint32_t>(sizeof(void*)) * num_ops_, alignof(void*),
                          &record_.op_data_ptr_bytes, "op data pointers", &off));
  op_data_ = reinterpret_cast<void**>(ArenaPtr(arena_, off));
  return ResolveKernels();
}

Status Interpreter::ResolveKernels() {
  for (uint32_t c = 0; c < num_opcodes_; ++c) {
    const tfl::OperatorCode* code = model_->operator_codes()->Get(c);
    const int32_t builtin = static_cast<int32_t>(code->builtin_code()) > code->deprecated_builtin_code()
                                ? static_cast<int32_t>(code->builtin_code())
                                : code->deprecated_builtin_code();
    kernels_[c] = FindKernel(resolver_, builtin,
                             code->custom_code() != nullptr ? code->custom_code()->c_str() : nullptr);
  }
  for (uint32_t i = 0; i < num_ops_; ++i) {
    const KernelRegistration* k = kernels_[subgraph_->operators()->Get(i)->opcode_index()];
    if (k == nullptr || k->eval == nullptr) {
      return OpError(Status::kUnsupported, i, "op not supported by this runtime (no kernel registered)");
    }
  }
  return Status::kOk;
}

// ---------------------------------------------------------------------------------------------
// Phase 2: prepare.

Status Interpreter::PrepareAll() {
  in_prepare_ = true;
  for (uint32_t i = 0; i < num_ops_; ++i) {
    current_op_ = i;
    op_requests_ = 0;
    const KernelRegistration* k = kernels_[subgraph_->operators()->Get(i)->opcode_index()];
    if (k->prepare == nullptr) continue;
    error_.text[0] = '\0';
    error_.length = 0;
    const Status s = k->prepare(*this);
    if (s != Status::kOk) {
      in_prepare_ = false;
      if (error_.length == 0) return OpError(s, i, "prepare failed (%s)", StatusName(s));
      return s;
    }
  }
  in_prepare_ = false;
  return Status::kOk;
}

Status Interpreter::AllocatePersistent(uint32_t bytes, void** out) {
  *out = nullptr;
  if (!in_prepare_) return Fail(Status::kBadState, "AllocatePersistent outside prepare");
  uint32_t off = 0;
  ErrorText detail;
  const Status s = ArenaAllocTail(&arena_, bytes, kArenaAlignment, &off, &detail, "persistent op data");
  if (s != Status::kOk) return Fail(s, "%s", detail.text);
  record_.op_data_bytes += bytes;
  *out = ArenaPtr(arena_, off);
  return Status::kOk;
}

Status Interpreter::RequestScratch(uint32_t bytes, int32_t* index) {
  if (!in_prepare_) return Fail(Status::kBadState, "RequestScratch outside prepare");
  if (op_requests_ >= kMaxScratchPerNode) {
    return Fail(Status::kUnsupported, "more than %u scratch requests", kMaxScratchPerNode);
  }
  if (bytes > 0x7FFFFFF0u) return Fail(Status::kArenaFull, "scratch request of %u bytes", bytes);
  // Requests wait in the head (unused until planning), growing by one entry each.
  ErrorText detail;
  const uint32_t need = static_cast<uint32_t>(sizeof(ScratchRequest)) * (num_requests_ + 1);
  const Status s = ArenaSetHead(&arena_, need, &detail, "scratch request list");
  if (s != Status::kOk) return Fail(s, "%s", detail.text);
  ScratchRequest* list = reinterpret_cast<ScratchRequest*>(arena_.base);
  list[num_requests_] = ScratchRequest{bytes, current_op_};
  *index = static_cast<int32_t>(num_requests_++);
  ++op_requests_;
  return Status::kOk;
}

void* Interpreter::GetScratch(int32_t index) {
  if (scratch_offset_ == nullptr || index < 0 || static_cast<uint32_t>(index) >= num_requests_) return nullptr;
  return ArenaPtr(arena_, scratch_offset_[index]);
}

// ---------------------------------------------------------------------------------------------
// Phase 3: finish (plan and commit).

Status Interpreter::ReadOfflinePlan(const uint8_t** words, uint32_t* count) {
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
      return Status::kInvalidModel;
    }
    const int32_t n = ReadWord(data->data(), 2);
    uint32_t total = 0;
    for (uint32_t s = 0; s < Size(model_->subgraphs()); ++s) total += Size(model_->subgraphs()->Get(s)->tensors());
    if (n < 0 || static_cast<uint32_t>(n) != total) {
      SetError(&error_, "metadata %s: %d offsets, but the model has %u tensors", kOfflineName, n, total);
      return Status::kInvalidModel;
    }
    if ((data->size() - 12) / 4 < static_cast<uint32_t>(n)) {
      SetError(&error_, "metadata %s: %d offsets declared, buffer holds %u", kOfflineName, n, (data->size() - 12) / 4);
      return Status::kInvalidModel;
    }
    *words = data->data() + 12;
    *count = static_cast<uint32_t>(n);
    return Status::kOk;
  }
  return Status::kOk;
}

int32_t Interpreter::OfflineOffset(const uint8_t* offline, uint32_t t) const {
  return offline != nullptr ? ReadWord(offline, t) : kOnline;
}

bool Interpreter::NeedsPlanning(uint32_t t, const uint8_t* offline) const {
  const tfl::Tensor& tensor = *subgraph_->tensors()->Get(t);
  uint32_t size = 0;
  if (ConstantData(tensor, &size) != nullptr || TensorBytes(tensor) == 0) return false;
  return !tensor.is_variable() || OfflineOffset(offline, t) != kOnline;
}

uint32_t Interpreter::CountPlannedBuffers(const uint8_t* offline) const {
  uint32_t n = 0;
  for (uint32_t t = 0; t < num_tensors_; ++t) n += NeedsPlanning(t, offline) ? 1 : 0;
  return n + num_requests_;
}

Status Interpreter::AllocateVariables(const uint8_t* offline) {
  for (uint32_t t = 0; t < num_tensors_; ++t) {
    const tfl::Tensor& tensor = *subgraph_->tensors()->Get(t);
    if (!tensor.is_variable() || NeedsPlanning(t, offline)) continue;
    uint32_t size = 0;
    if (ConstantData(tensor, &size) != nullptr || TensorBytes(tensor) == 0) continue;
    uint32_t off = 0;
    RT_RETURN_IF_ERROR(Tail(TensorBytes(tensor), kArenaAlignment, &record_.variable_bytes, "variable tensor", &off));
    tensor_offset_[t] = off;
  }
  return Status::kOk;
}

Status Interpreter::CollectBuffers(PlanBuffer* bufs, uint32_t n, const uint8_t* offline) {
  uint32_t b = 0;
  for (uint32_t t = 0; t < num_tensors_; ++t) {
    if (!NeedsPlanning(t, offline)) continue;
    const int32_t fixed = OfflineOffset(offline, t);
    if (fixed < kOnline) {
      SetError(&error_, "subgraph 0, tensor %u: offline offset %d is negative", t, fixed);
      return Status::kInvalidModel;
    }
    bufs[b] = PlanBuffer{AlignUp16(TensorBytes(*subgraph_->tensors()->Get(t))), -1, -1, fixed};
    tensor_offset_[t] = b++;  // temporarily: the plan buffer of tensor t
  }
  const ScratchRequest* req = reinterpret_cast<const ScratchRequest*>(arena_.base);
  for (uint32_t r = 0; r < num_requests_; ++r) bufs[b++] = PlanBuffer{AlignUp16(req[r].bytes), -1, -1, kOnline};
  return b == n ? Status::kOk : Status::kBadState;
}

Status Interpreter::ApplyCompiledPlan(PlanBuffer* bufs, uint32_t n) {
  const CompiledPlan& plan = *options_.compiled_plan;
  const uint32_t per_tensor = num_tensors_ + num_requests_;
  if (plan.offsets == nullptr || (plan.count != per_tensor && plan.count != n)) {
    SetError(&error_, "compiled plan has %u offsets; expected %u (per tensor + scratch) or %u (per planned buffer)",
             plan.count, per_tensor, n);
    return Status::kBadArgument;
  }
  uint32_t b = 0;
  for (uint32_t i = 0; i < plan.count; ++i) {
    const bool planned = plan.count == n || i >= num_tensors_ || NeedsPlanning(i, nullptr);
    if (!planned) continue;
    if (plan.offsets[i] < 0) {
      SetError(&error_, "compiled plan entry %u is %d for a buffer that needs memory", i, plan.offsets[i]);
      return Status::kBadArgument;
    }
    bufs[b++].offset = plan.offsets[i];
  }
  // A compiled plan is trusted for nothing: two buffers live at the same time must not overlap.
  for (uint32_t i = 0; i < n; ++i) {
    if (static_cast<uint64_t>(bufs[i].offset) + bufs[i].size > plan.head_bytes) {
      SetError(&error_, "compiled plan: buffer %u ends at %u, beyond head_bytes %u", i,
               static_cast<uint32_t>(bufs[i].offset + bufs[i].size), plan.head_bytes);
      return Status::kBadArgument;
    }
    for (uint32_t j = i + 1; j < n; ++j) {
      const bool apart = static_cast<uint64_t>(bufs[i].offset) + bufs[i].size <= static_cast<uint64_t>(bufs[j].offset) ||
                         static_cast<uint64_t>(bufs[j].offset) + bufs[j].size <= static_cast<uint64_t>(bufs[i].offset);
      if (Overlap(bufs[i], bufs[j]) && !apart && bufs[i].size > 0 && bufs[j].size > 0) {
        SetError(&error_, "compiled plan: buffers %u and %u are live together and overlap", i, j);
        return Status::kBadArgument;
      }
    }
  }
  return Status::kOk;
}

Status Interpreter::Finish() {
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
    return Status::kUnsupported;
  }
  uint32_t bufs_off = 0, order_off = 0, next_off = 0;
  RT_RETURN_IF_ERROR(ArenaAllocTemp(&arena_, n * static_cast<uint32_t>(sizeof(PlanBuffer)), 4, &bufs_off, &error_, "plan buffers"));
  RT_RETURN_IF_ERROR(ArenaAllocTemp(&arena_, 2 * n, 2, &order_off, &error_, "planner order"));
  RT_RETURN_IF_ERROR(ArenaAllocTemp(&arena_, 2 * n, 2, &next_off, &error_, "planner list"));
  auto* bufs = reinterpret_cast<PlanBuffer*>(ArenaPtr(arena_, bufs_off));
  RT_RETURN_IF_ERROR(CollectBuffers(bufs, n, offline));
  const uint32_t first_scratch = n - num_requests_;
  const ScratchRequest* req = reinterpret_cast<const ScratchRequest*>(arena_.base);
  MarkLifetimes(*subgraph_, tensor_offset_, req, num_requests_, first_scratch, bufs);
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
  for (uint32_t t = 0; t < num_tensors_; ++t) {
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
  // Variables start at zero (int8: at their zero point), as TFLM's ResetVariableTensors does.
  for (uint32_t t = 0; t < num_tensors_; ++t) {
    const tfl::Tensor& tensor = *subgraph_->tensors()->Get(t);
    if (!tensor.is_variable() || tensor_offset_[t] == kNoBuffer) continue;
    int value = 0;
    if (tensor.type() == TensorType::INT8 && tensor.quantization() != nullptr &&
        Size(tensor.quantization()->zero_point()) > 0) {
      value = static_cast<int>(tensor.quantization()->zero_point()->Get(0));
    }
    std::memset(ArenaPtr(arena_, tensor_offset_[t]), value, TensorBytes(tensor));
  }
  return Status::kOk;
}

Status Interpreter::AllocateTensors() {
  if (state_ != State::kCreated) {
    SetError(&error_, "AllocateTensors called twice");
    return Status::kBadState;
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
  return Status::kOk;
}

Status Interpreter::Invoke() {
  if (state_ != State::kAllocated) {
    SetError(&error_, "Invoke before a successful AllocateTensors");
    return Status::kBadState;
  }
  for (uint32_t i = 0; i < num_ops_; ++i) {
    current_op_ = i;
    const KernelRegistration* k = kernels_[subgraph_->operators()->Get(i)->opcode_index()];
    error_.length = 0;
    const Status s = k->eval(*this);
    if (s != Status::kOk) {
      if (error_.length == 0) return OpError(s, i, "eval failed (%s)", StatusName(s));
      return s;
    }
  }
  return Status::kOk;
}

// ---------------------------------------------------------------------------------------------
// Views.

TensorView Interpreter::View(int32_t index) const {
  TensorView v;
  if (subgraph_ == nullptr || index < 0 || static_cast<uint32_t>(index) >= num_tensors_) return v;
  const tfl::Tensor& t = *subgraph_->tensors()->Get(static_cast<uint32_t>(index));
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
    if (state_ == State::kAllocated && tensor_offset_[index] != kNoBuffer) {
      v.data = ArenaPtr(arena_, tensor_offset_[index]);
    }
  }
  const tfl::QuantizationParameters* q = t.quantization();
  if (q != nullptr && Size(q->scale()) > 0) {
    v.scale = q->scale()->Get(0);
    v.scales = q->scale()->data();
    v.num_channels = static_cast<int32_t>(q->scale()->size());
    if (Size(q->zero_point()) > 0) {
      v.zero_point = static_cast<int32_t>(q->zero_point()->Get(0));
      v.zero_points = q->zero_point()->data();
    }
    v.quantized_dimension = q->quantized_dimension();
  }
  return v;
}

uint32_t Interpreter::inputs_size() const { return subgraph_ != nullptr ? Size(subgraph_->inputs()) : 0; }
uint32_t Interpreter::outputs_size() const { return subgraph_ != nullptr ? Size(subgraph_->outputs()) : 0; }

TensorView Interpreter::input(uint32_t i) const {
  if (i >= inputs_size()) return TensorView{};
  return View(subgraph_->inputs()->Get(i));
}

TensorView Interpreter::output(uint32_t i) const {
  if (i >= outputs_size()) return TensorView{};
  return View(subgraph_->outputs()->Get(i));
}

TensorView Interpreter::tensor(uint32_t index) const { return View(static_cast<int32_t>(index)); }

int32_t Interpreter::op_version() const {
  const uint32_t c = op()->opcode_index();
  return model_->operator_codes()->Get(c)->version();
}

const tfl::Operator* Interpreter::op() const { return subgraph_->operators()->Get(current_op_); }
uint32_t Interpreter::num_inputs() const { return Size(op()->inputs()); }
uint32_t Interpreter::num_outputs() const { return Size(op()->outputs()); }

bool Interpreter::GetInput(uint32_t k, TensorView* out) {
  *out = TensorView{};
  if (k >= num_inputs()) return false;
  const int32_t idx = op()->inputs()->Get(k);
  if (idx < 0) return false;
  *out = View(idx);
  return true;
}

bool Interpreter::GetOutput(uint32_t k, TensorView* out) {
  *out = TensorView{};
  if (k >= num_outputs()) return false;
  *out = View(op()->outputs()->Get(k));
  return true;
}

}  // namespace arenaplan::rt
