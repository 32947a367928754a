// The contract between the interpreter and a kernel (one op family per file in kernels/).
//
// A kernel is two plain functions in a KernelRegistration:
//   prepare(ctx): runs once in AllocateTensors. Validate types and shapes, precompute parameters
//                 into persistent op data (ctx.AllocatePersistent + ctx.set_op_data), request
//                 scratch memory (ctx.RequestScratch). Tensor data pointers of non-constant tensors
//                 are NOT valid yet (planning happens after every prepare); constants are.
//   eval(ctx):    runs on every Invoke. Reads ctx.op_data(), inputs, writes outputs; may use
//                 ctx.GetScratch(). It must not allocate and must not keep state other than in op
//                 data or variable tensors.
// Both return StatusCode; on failure call `return ctx.Fail(StatusCode::kKernelError, "fmt", ...)`, which
// records "op <index> (<NAME>): <message>" in the owner's fixed buffer.
//
// KernelContext is an interface so kernels run unchanged inside the Interpreter and in unit tests
// over stack arrays (runtime/standalone_context.h). No heap, no exceptions, no RTTI involved.
#pragma once

#include <cstdarg>
#include <cstdint>

#include "rules/limits.h"
#include "runtime/status.h"
#include "runtime/tensor_view.h"
#include "schema/tflite_generated.h"

namespace arenaplan::rt {

// TFLM allows this many scratch requests per node; so do we.
using rules::kMaxScratchPerNode;

// Rows / columns a convolution reads as padding on each side, and the value they hold (the input's
// zero point; 0 for float). The kernel skips padded taps, which equals that value and only it.
struct ExplicitPadding {
  int32_t top = 0, bottom = 0, left = 0, right = 0, value = 0;
};

class KernelContext {
 public:
  // --- the node being prepared / evaluated -----------------------------------------------------
  virtual int32_t op_index() const = 0;     // index of the op in subgraph 0
  virtual const char* op_name() const = 0;  // "CONV_2D", or the custom code
  virtual int32_t op_version() const = 0;   // OperatorCode.version
  // The flatbuffer operator (builtin options, custom options). May be nullptr in unit tests
  // that pass no options; use Options<T>() which handles that.
  virtual const tfl::Operator* op() const = 0;
  virtual uint32_t num_inputs() const = 0;
  virtual uint32_t num_outputs() const = 0;
  // Fill *out with the view of input / output k. Return false when k is out of range or the
  // input is an omitted optional one (index -1); *out is then reset to an empty view.
  virtual bool GetInput(uint32_t k, TensorView* out) = 0;
  virtual bool GetOutput(uint32_t k, TensorView* out) = 0;

  // --- per-node persistent state ------------------------------------------------------------------
  virtual void* op_data() const = 0;
  virtual void set_op_data(void* data) = 0;
  // Persistent memory for this node (prepare only), 16-aligned, lives as long as the interpreter.
  virtual StatusCode AllocatePersistent(uint32_t bytes, void** out) = 0;
  // Persistent memory that ops asking with equal key bytes may share (prepare only): *fresh says
  // whether it is new (the caller fills it) or an earlier op's (read only: equal keys must mean
  // equal contents, e.g. per-channel multipliers keyed by the scales they come from). Default:
  // never shared. The interpreter shares within models that carry an arenaplan schedule (their
  // patch copies repeat each convolution's quantization), each unique block costing a small header.
  virtual StatusCode AllocateSharedPersistent(const void* key, uint32_t key_bytes, uint32_t bytes, void** out,
                                              bool* fresh) {
    *fresh = true;
    return AllocatePersistent(bytes, out);
  }
  // Asks for `bytes` of scratch live only during this node's eval (prepare only). *index is the
  // handle for GetScratch. At most kMaxScratchPerNode per node.
  virtual StatusCode RequestScratch(uint32_t bytes, int32_t* index) = 0;
  // The scratch buffer for a handle from RequestScratch (eval only); nullptr for a bad handle.
  virtual void* GetScratch(int32_t index) = 0;

  // --- other subgraphs (control flow: WHILE, IF, CALL_ONCE) -------------------------------------
  // Defaults describe a context with one subgraph and no way to run another (unit tests).
  virtual uint32_t num_subgraphs() const { return 1; }
  virtual uint32_t subgraph_inputs_size(uint32_t s) const { return 0; }
  virtual uint32_t subgraph_outputs_size(uint32_t s) const { return 0; }
  // View of input / output k of subgraph s (data valid at eval only); false when out of range.
  virtual bool GetSubgraphInput(uint32_t s, uint32_t k, TensorView* out) {
    *out = TensorView{};
    return false;
  }
  virtual bool GetSubgraphOutput(uint32_t s, uint32_t k, TensorView* out) {
    *out = TensorView{};
    return false;
  }
  // Runs every op of subgraph s (eval only). Depth is bounded by the interpreter.
  virtual StatusCode InvokeSubgraph(uint32_t s) { return Fail(StatusCode::kUnsupported, "no subgraph %u here", s); }

  // --- resource variables (VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE) ----------------------------
  // Prepare: the id for (container, shared_name), created if new (nullptr container matches any).
  virtual StatusCode ResourceId(const char* container, const char* shared_name, int32_t* id) {
    return Fail(StatusCode::kUnsupported, "no resource variables here");
  }
  // Prepare: reserve `bytes` for variable id once (later calls keep the first size), filled with
  // `fill` (TFLM: the value's zero point) now and on Reset.
  virtual StatusCode AllocateResource(int32_t id, uint32_t bytes, int8_t fill) {
    return Fail(StatusCode::kUnsupported, "no resource variables here");
  }
  // The variable's bytes; *data is nullptr (and *bytes 0) before AllocateResource.
  virtual StatusCode GetResource(int32_t id, uint8_t** data, uint32_t* bytes) {
    return Fail(StatusCode::kUnsupported, "no resource variables here");
  }
  // Prepare: make output k point at persistent data (e.g. op data) for good; it is never planned
  // (TFLM: VAR_HANDLE points its output at its resource id).
  virtual StatusCode PointOutputAt(uint32_t k, void* data) {
    return Fail(StatusCode::kUnsupported, "outputs cannot be redirected here");
  }

  // --- the planned region (eval only) ---------------------------------------------------------------
  // [*base, *base + *bytes): every planned tensor and scratch buffer. Only for reproducing a TFLM
  // kernel that writes past its outputs into whatever the plan put there
  // (TFLite_Detection_PostProcess with several classes per anchor); false where there is none.
  virtual bool PlannedRegion(uint8_t** base, uint32_t* bytes) { return false; }

  // --- arenaplan's execution schedule (rules/schedule.h) -----------------------------------------
  // The explicit padding the schedule gives this op (a PAD folded into it): false when none.
  virtual bool GetExplicitPadding(ExplicitPadding* out) {
    *out = ExplicitPadding{};
    return false;
  }

  // True when the schedule lets this op write its output over its input (rules/schedule.h,
  // kInPlace). The planner then may give both one buffer; the kernel sees it as equal data
  // pointers at eval and must handle both cases.
  virtual bool InPlace() { return false; }

  // Eval: true while the interpreter runs this op one output row at a time (a stream segment of
  // the schedule, runtime/stream.h). The output view is then that one row, the input view (input
  // 0) only the rows it reads, and *pad_top the padded rows above the view: it replaces the op's
  // leading height padding (taps past the view's last row are past the image's). Only kernels
  // whose registration says streams_rows are run so.
  virtual bool StreamPadTop(int32_t* pad_top) { return false; }  // *pad_top untouched

  // --- errors ----------------------------------------------------------------------------------------
  // Records "op <i> (<NAME>): <formatted>" (%d %u %x %s %c only; no floats) and returns `code`.
  StatusCode Fail(StatusCode code, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
  virtual void ReportV(const char* fmt, va_list args) = 0;

 protected:
  ~KernelContext() = default;  // never deleted through the interface
};

// Builtin options of the current op as table T (e.g. tfl::Conv2DOptions), or nullptr when the
// model carries none (kernels then use TFLite's defaults).
template <typename T>
const T* Options(const KernelContext& ctx) {
  const tfl::Operator* op = ctx.op();
  return op != nullptr ? op->builtin_options_as<T>() : nullptr;
}

struct KernelRegistration {
  const char* name;                           // op name for messages, e.g. "ADD"
  StatusCode (*prepare)(KernelContext& ctx);  // may be nullptr (nothing to check or precompute)
  StatusCode (*eval)(KernelContext& ctx);     // required
  // Interpreter::Reset: put kernel-internal state in op data back to its post-prepare value.
  StatusCode (*reset)(KernelContext& ctx) = nullptr;
  // Eval takes one output row with a partial input (KernelContext::StreamPadTop): the property
  // that lets the schedule stream the op (pinned by tests per kernel).
  bool streams_rows = false;
};

// --- small checks kernels use everywhere (each returns kOk or a Fail naming the problem) -------
// Input k must exist; fills *out.
StatusCode RequireInput(KernelContext& ctx, uint32_t k, TensorView* out);
StatusCode RequireOutput(KernelContext& ctx, uint32_t k, TensorView* out);
// Exactly n inputs / outputs (counting omitted optional ones).
StatusCode RequireCounts(KernelContext& ctx, uint32_t inputs, uint32_t outputs);
StatusCode RequireType(KernelContext& ctx, const TensorView& t, TensorType type, const char* which);
StatusCode RequireSameShape(KernelContext& ctx, const TensorView& a, const TensorView& b, const char* what);

}  // namespace arenaplan::rt
