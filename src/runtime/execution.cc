// Running kernels: prepare of every op, the eval loop of Invoke, nested subgraph calls, and the
// KernelContext each kernel sees (views, op data, persistent memory, scratch, messages).
#include <cstring>

#include "rules/limits.h"
#include "runtime/interpreter.h"

namespace arenaplan::rt {

void Interpreter::SetCurrent(uint32_t s, uint32_t op) {
  current_sg_ = s;
  current_op_ = op;
}

void Interpreter::OpPrefix(char* prefix, uint32_t cap) const {
  const uint32_t n = [&] {
    FormatOpPlace(model_, current_sg_, current_op_, prefix, cap);
    uint32_t len = 0;
    while (prefix[len] != '\0') ++len;
    return len;
  }();
  Format(prefix + n, cap - n, ": ");
}

StatusCode Interpreter::OpError(StatusCode code, const char* fmt, ...) {
  char prefix[96];
  OpPrefix(prefix, sizeof(prefix));
  va_list args;
  va_start(args, fmt);
  SetErrorV(&error_, prefix, fmt, args);
  va_end(args);
  return code;
}

void Interpreter::ReportV(const char* fmt, va_list args) {
  char prefix[96];
  OpPrefix(prefix, sizeof(prefix));
  SetErrorV(&error_, prefix, fmt, args);
}

// Runs one kernel hook (prepare, eval or reset) of op `op` in subgraph s; a failure without a
// message gets "<what> failed (<status>)".
StatusCode Interpreter::RunKernelHook(uint32_t s, uint32_t op, StatusCode (*hook)(KernelContext&), const char* what) {
  SetCurrent(s, op);
  error_.text[0] = '\0';
  error_.length = 0;
  const StatusCode st = hook(*this);
  if (st == StatusCode::kOk) return st;
  SetCurrent(s, op);  // a nested call may have moved it; the message names this op
  if (error_.length == 0) return OpError(st, "%s failed (%s)", what, StatusName(st));
  return st;
}

StatusCode Interpreter::PrepareAll() {
  // TFLM prepares subgraph 0, then 1, ... (scratch requests are numbered in this order).
  in_prepare_ = true;
  shared_list_ = 0;
  for (uint32_t sg = 0; sg < model_.counts.subgraphs; ++sg) {
    for (uint32_t i = 0; i < rules::Size(model_.subgraph(sg).operators()); ++i) {
      op_requests_ = 0;
      const KernelRegistration* k = KernelOf(model_, tables_, sg, i);
      if (k->prepare == nullptr) continue;
      const StatusCode s = RunKernelHook(sg, i, k->prepare, "prepare");
      if (s != StatusCode::kOk) {
        in_prepare_ = false;
        return s;
      }
    }
  }
  in_prepare_ = false;
  SetCurrent(0, 0);
  return StatusCode::kOk;
}

StatusCode Interpreter::RunSubgraph(uint32_t sg) {
  for (uint32_t i = 0; i < rules::Size(model_.subgraph(sg).operators()); ++i) {
    if (options_.max_ops_per_invoke != 0 && ++ops_run_ > options_.max_ops_per_invoke) {
      SetCurrent(sg, i);
      return OpError(StatusCode::kUnsupported, "Invoke ran more than %llu ops (InterpreterOptions::max_ops_per_invoke)",
                     static_cast<unsigned long long>(options_.max_ops_per_invoke));
    }
    rules::ScheduleRecord stream;
    if (sg == 0 && model_.schedule.present() &&
        rules::FindScheduleRecord(model_.schedule, 0, i, rules::ScheduleKind::kStream, &stream)) {
      // The segment's ops run interleaved, row by row; the callback sees its last op (the
      // intermediates hold only their last window).
      RT_RETURN_IF_ERROR(RunStream(i, static_cast<uint32_t>(stream.a)));
      ops_run_ += static_cast<uint64_t>(stream.a) - 1;
      i += static_cast<uint32_t>(stream.a) - 1;
    } else {
      RT_RETURN_IF_ERROR(RunKernelHook(sg, i, KernelOf(model_, tables_, sg, i)->eval, "eval"));
    }
    if (options_.after_op != nullptr) {
      const StatusCode cb = options_.after_op(options_.after_op_user, *this, sg, i);
      if (cb != StatusCode::kOk) {
        SetCurrent(sg, i);
        return OpError(cb, "stopped by the after-op callback (%s)", StatusName(cb));
      }
    }
  }
  return StatusCode::kOk;
}

StatusCode Interpreter::InvokeSubgraph(uint32_t s) {
  if (state_ != State::kAllocated || in_prepare_) return Fail(StatusCode::kBadState, "InvokeSubgraph outside eval");
  if (s >= model_.counts.subgraphs) {
    return Fail(StatusCode::kBadArgument, "subgraph %u out of range (%u)", s, model_.counts.subgraphs);
  }
  // Calls were checked acyclic and shallow at AllocateTensors (rules::WalkCallTree); this bound is
  // the last guard for a kernel that calls other subgraphs than its options name.
  if (depth_ >= rules::kMaxCallDepth) {
    return Fail(StatusCode::kUnsupported, "control flow nested deeper than %u subgraphs", rules::kMaxCallDepth);
  }
  const uint32_t sg = current_sg_, op = current_op_;
  ++depth_;
  const StatusCode st = RunSubgraph(s);
  --depth_;
  if (st != StatusCode::kOk) return st;  // current_ names the failing op for the message
  SetCurrent(sg, op);
  return StatusCode::kOk;
}

uint32_t Interpreter::subgraph_inputs_size(uint32_t s) const {
  return s < model_.counts.subgraphs ? rules::Size(model_.subgraph(s).inputs()) : 0;
}

uint32_t Interpreter::subgraph_outputs_size(uint32_t s) const {
  return s < model_.counts.subgraphs ? rules::Size(model_.subgraph(s).outputs()) : 0;
}

bool Interpreter::GetSubgraphInput(uint32_t s, uint32_t k, TensorView* out) {
  *out = TensorView{};
  if (k >= subgraph_inputs_size(s)) return false;
  *out = View(s, model_.subgraph(s).inputs()->Get(k));
  return true;
}

bool Interpreter::GetSubgraphOutput(uint32_t s, uint32_t k, TensorView* out) {
  *out = TensorView{};
  if (k >= subgraph_outputs_size(s)) return false;
  *out = View(s, model_.subgraph(s).outputs()->Get(k));
  return true;
}

// --- the op being prepared / evaluated -------------------------------------------------------------

const char* Interpreter::op_name() const {
  const tfl::OperatorCode& code = model_.index.code_of(CurrentOp());
  const int32_t builtin = rules::BuiltinCode(code);
  if (builtin == static_cast<int32_t>(tfl::BuiltinOperator::CUSTOM)) {
    return code.custom_code() != nullptr ? code.custom_code()->c_str() : "CUSTOM";
  }
  const char* name = builtin <= static_cast<int32_t>(tfl::BuiltinOperator::MAX)
                         ? tfl::EnumNameBuiltinOperator(static_cast<tfl::BuiltinOperator>(builtin))
                         : nullptr;
  return (name != nullptr && name[0] != '\0') ? name : "UNKNOWN_OP";
}

int32_t Interpreter::op_version() const { return model_.index.code_of(CurrentOp()).version(); }
uint32_t Interpreter::num_inputs() const { return rules::Size(CurrentOp().inputs()); }
uint32_t Interpreter::num_outputs() const { return rules::Size(CurrentOp().outputs()); }

bool Interpreter::GetInput(uint32_t k, TensorView* out) {
  *out = TensorView{};
  if (k >= num_inputs()) return false;
  if (k == 0 && stream_.active) {
    *out = stream_.in;
    return true;
  }
  const int32_t idx = CurrentOp().inputs()->Get(k);
  if (idx < 0) return false;
  *out = View(current_sg_, idx);
  return true;
}

bool Interpreter::GetExplicitPadding(ExplicitPadding* out) {
  *out = ExplicitPadding{};
  rules::ScheduleRecord r;
  if (!rules::FindScheduleRecord(model_.schedule, current_sg_, current_op_, rules::ScheduleKind::kExplicitPadding, &r)) {
    return false;
  }
  *out = ExplicitPadding{r.a, r.b, r.c, r.d, r.value};
  return true;
}

bool Interpreter::InPlace() {
  rules::ScheduleRecord r;
  return rules::FindScheduleRecord(model_.schedule, current_sg_, current_op_, rules::ScheduleKind::kInPlace, &r);
}

bool Interpreter::StreamPadTop(int32_t* pad_top) {
  if (!stream_.active) return false;
  *pad_top = stream_.pad_top;
  return true;
}

bool Interpreter::GetOutput(uint32_t k, TensorView* out) {
  *out = TensorView{};
  if (k >= num_outputs()) return false;
  if (k == 0 && stream_.active) {
    *out = stream_.out;
    return true;
  }
  *out = View(current_sg_, CurrentOp().outputs()->Get(k));
  return true;
}

// A shared block's header in the tail, followed by its key bytes; the data is a separate
// 16-aligned allocation.
struct SharedHeader {
  uint32_t next;  // older block's header offset + 1, 0 at the end
  uint32_t key_bytes, bytes, data;
};

StatusCode Interpreter::AllocateSharedPersistent(const void* key, uint32_t key_bytes, uint32_t bytes, void** out,
                                                 bool* fresh) {
  *fresh = true;
  if (!model_.schedule.present() || key_bytes > 256) return AllocatePersistent(bytes, out);
  *out = nullptr;
  if (!in_prepare_) return Fail(StatusCode::kBadState, "AllocateSharedPersistent outside prepare");
  for (uint32_t at = shared_list_; at != 0;) {
    const auto* h = reinterpret_cast<const SharedHeader*>(ArenaPtr(arena_, at - 1));
    if (h->key_bytes == key_bytes && h->bytes == bytes && std::memcmp(h + 1, key, key_bytes) == 0) {
      *out = ArenaPtr(arena_, h->data);
      *fresh = false;
      return StatusCode::kOk;
    }
    at = h->next;
  }
  RT_RETURN_IF_ERROR(AllocatePersistent(bytes, out));
  uint32_t off = 0;
  ErrorText detail;
  const uint32_t header = static_cast<uint32_t>(sizeof(SharedHeader)) + key_bytes;
  const StatusCode s = ArenaAllocTail(&arena_, header, 4, &off, &detail, "shared op data header");
  if (s != StatusCode::kOk) return Fail(s, "%s", detail.text);
  record_.op_data_bytes += header;
  auto* h = reinterpret_cast<SharedHeader*>(ArenaPtr(arena_, off));
  *h = SharedHeader{shared_list_, key_bytes, bytes, static_cast<uint32_t>(static_cast<uint8_t*>(*out) - ArenaPtr(arena_, 0))};
  std::memcpy(h + 1, key, key_bytes);
  shared_list_ = off + 1;
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
  if (num_requests_ >= rules::kMaxScratchRequests) {
    return Fail(StatusCode::kUnsupported, "more than %u scratch requests in the model", rules::kMaxScratchRequests);
  }
  if (bytes > rules::kMaxBufferBytes) {
    return Fail(StatusCode::kUnsupported, "scratch request of %u bytes, more than the %u a buffer may have", bytes,
                rules::kMaxBufferBytes);
  }
  // Requests wait in the head (unused until planning), growing by one entry each.
  ErrorText detail;
  const uint32_t need = static_cast<uint32_t>(sizeof(rules::ScratchRequest)) * (num_requests_ + 1);
  const StatusCode s = ArenaSetHead(&arena_, need, &detail, "scratch request list");
  if (s != StatusCode::kOk) return Fail(s, "%s", detail.text);
  auto* list = reinterpret_cast<rules::ScratchRequest*>(arena_.base);
  list[num_requests_] = rules::ScratchRequest{bytes, model_.index.op_base[current_sg_] + current_op_};
  *index = static_cast<int32_t>(num_requests_++);
  ++op_requests_;
  return StatusCode::kOk;
}

void* Interpreter::GetScratch(int32_t index) {
  if (tables_.scratch_offset == nullptr || index < 0 || static_cast<uint32_t>(index) >= num_requests_) return nullptr;
  return RegionPtr(arena_, options_.regions, options_.num_regions, tables_.scratch_offset[index]);
}

bool Interpreter::PlannedRegion(uint8_t** base, uint32_t* bytes) {
  if (state_ != State::kAllocated || in_prepare_) return false;
  *base = arena_.base;
  *bytes = arena_.head;
  return true;
}

// A view built from the flatbuffer: constants point into the model, other tensors at their arena
// offset once they have one (planned tensors after planning, VAR_HANDLE outputs from prepare on),
// external I/O at the application's buffer once bound.
TensorView Interpreter::View(uint32_t s, int32_t index) const {
  TensorView v;
  if (model_.model == nullptr || tables_.tensor_offset == nullptr || s >= model_.counts.subgraphs || index < 0 ||
      static_cast<uint32_t>(index) >= rules::Size(model_.subgraph(s).tensors())) {
    return v;
  }
  const tfl::Tensor& t = *model_.subgraph(s).tensors()->Get(static_cast<uint32_t>(index));
  const uint32_t off = tables_.tensor_offset[model_.index.tensor_base[s] + static_cast<uint32_t>(index)];
  v.type = t.type();
  v.rank = static_cast<int32_t>(rules::Size(t.shape()));
  v.dims = t.shape() != nullptr ? t.shape()->data() : nullptr;
  const uint64_t bytes = rules::TensorBytes(t);  // <= kMaxBufferBytes (rules::CheckModel)
  uint64_t size = 0;
  const uint8_t* constant = model_.ConstantData(t, &size);
  if (constant != nullptr) {
    v.data = const_cast<uint8_t*>(constant);  // kernels never write inputs; the model stays read-only
    v.bytes = static_cast<uint32_t>(rules::TypeBytes(t.type()) != 0 ? bytes : size);
  } else {
    v.bytes = static_cast<uint32_t>(bytes);
    if (off != kNoData) {
      v.data = RegionPtr(arena_, options_.regions, options_.num_regions, off);  // planned: maybe a region
    } else if (s == 0 && external_.io != ExternalIo::kNone) {
      v.data = ExternalData(model_, external_, static_cast<uint32_t>(index));  // the application's buffer
    }
  }
  const tfl::QuantizationParameters* q = t.quantization();
  if (q != nullptr && rules::Size(q->scale()) > 0) {
    v.scale = q->scale()->Get(0);
    v.scales = q->scale()->data();
    v.num_channels = static_cast<int32_t>(q->scale()->size());
    if (rules::Size(q->zero_point()) > 0) v.zero_point = static_cast<int32_t>(rules::Int64At(*q->zero_point(), 0));
    v.quantized_dimension = q->quantized_dimension();
  }
  return v;
}

}  // namespace arenaplan::rt
