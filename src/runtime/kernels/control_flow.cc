// WHILE, IF and CALL_ONCE (TFLM micro kernels while.cc, if.cc, call_once.cc): they run other
// subgraphs of the same interpreter through KernelContext::InvokeSubgraph; the called subgraphs'
// tensors are planned in the same head (one lifetime counter over all subgraphs), so nothing is
// allocated at eval. Values move between subgraphs by byte copies, exactly where TFLM copies.
#include <cstring>

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

// dst <- src, sizes must agree (TFLM copies EvalTensorBytes of the destination).
StatusCode CopyView(KernelContext& ctx, const TensorView& dst, const TensorView& src, const char* what, uint32_t k) {
  if (dst.bytes != src.bytes) {
    return ctx.Fail(StatusCode::kInvalidModel, "%s %u: %u bytes vs %u bytes", what, k, dst.bytes, src.bytes);
  }
  if (dst.bytes == 0 || dst.data == src.data) return StatusCode::kOk;
  if (dst.data == nullptr || src.data == nullptr) {
    return ctx.Fail(StatusCode::kBadState, "%s %u: tensor has no memory", what, k);
  }
  std::memmove(dst.data, src.data, dst.bytes);
  return StatusCode::kOk;
}

// Tensors that values move between: the op's inputs from `at` on, its outputs, or the inputs or
// outputs of subgraph `at`.
struct Tensors {
  enum Kind : uint8_t { kOpInputs, kOpOutputs, kSubgraphInputs, kSubgraphOutputs } kind;
  uint32_t at;

  void Get(KernelContext& ctx, uint32_t k, TensorView* v) const {
    switch (kind) {
      case kOpInputs: ctx.GetInput(at + k, v); break;
      case kOpOutputs: ctx.GetOutput(k, v); break;
      case kSubgraphInputs: ctx.GetSubgraphInput(at, k, v); break;
      default: ctx.GetSubgraphOutput(at, k, v); break;
    }
  }
};

// to[k] <- from[k] for k < n.
StatusCode CopyTensors(KernelContext& ctx, Tensors from, Tensors to, uint32_t n) {
  const char* what = to.kind == Tensors::kOpOutputs ? "output" : "subgraph input";
  for (uint32_t k = 0; k < n; ++k) {
    TensorView src, dst;
    from.Get(ctx, k, &src);
    to.Get(ctx, k, &dst);
    RT_RETURN_IF_ERROR(CopyView(ctx, dst, src, what, k));
  }
  return StatusCode::kOk;
}

// Op inputs [first, n) -> inputs 0.. of subgraph s.
StatusCode OpInputsToSubgraph(KernelContext& ctx, uint32_t first, uint32_t s) {
  const uint32_t n = ctx.num_inputs() > first ? ctx.num_inputs() - first : 0;
  return CopyTensors(ctx, {Tensors::kOpInputs, first}, {Tensors::kSubgraphInputs, s}, n);
}

StatusCode OpInputsToOpOutputs(KernelContext& ctx) {
  return CopyTensors(ctx, {Tensors::kOpInputs, 0}, {Tensors::kOpOutputs, 0}, ctx.num_outputs());
}

StatusCode OpOutputsToSubgraphInputs(KernelContext& ctx, uint32_t s) {
  return CopyTensors(ctx, {Tensors::kOpOutputs, 0}, {Tensors::kSubgraphInputs, s}, ctx.num_outputs());
}

StatusCode SubgraphOutputsToOpOutputs(KernelContext& ctx, uint32_t s) {
  return CopyTensors(ctx, {Tensors::kSubgraphOutputs, s}, {Tensors::kOpOutputs, 0}, ctx.num_outputs());
}

// Prepare: the subgraph index the options' getter `index` gives (0 without options) must exist.
template <typename O>
StatusCode ReadSubgraph(KernelContext& ctx, int32_t (O::*index)() const, const char* role, int32_t* s) {
  const O* o = Options<O>(ctx);
  *s = o != nullptr ? (o->*index)() : 0;
  if (*s < 0 || static_cast<uint32_t>(*s) >= ctx.num_subgraphs()) {
    return ctx.Fail(StatusCode::kInvalidModel, "%s subgraph %d out of range (%u subgraphs)", role, *s,
                    ctx.num_subgraphs());
  }
  return StatusCode::kOk;
}

// Sizes of the tensors copied between the op and subgraph s must agree (checked once, here).
StatusCode CheckSameBytes(KernelContext& ctx, const TensorView& a, const TensorView& b, const char* what, uint32_t k) {
  if (a.bytes == b.bytes) return StatusCode::kOk;
  return ctx.Fail(StatusCode::kInvalidModel, "%s %u: %u bytes vs %u bytes", what, k, a.bytes, b.bytes);
}

// Op data of WHILE (cond, body) and IF (then, else): the two subgraphs it runs.
struct SubgraphPair {
  uint32_t first;
  uint32_t second;
};

StatusCode ReadCondition(KernelContext& ctx, const TensorView& cond, bool* value) {
  if (cond.type != TensorType::BOOL || cond.bytes < 1 || cond.data == nullptr) {
    return ctx.Fail(StatusCode::kInvalidModel, "condition must be a non-empty BOOL tensor (got %s, %u bytes)",
                    TypeName(cond.type), cond.bytes);
  }
  *value = *static_cast<const uint8_t*>(cond.data) != 0;
  return StatusCode::kOk;
}

// ---- WHILE ------------------------------------------------------------------------------------

StatusCode WhilePrepare(KernelContext& ctx) {
  int32_t cond = 0, body = 0;
  RT_RETURN_IF_ERROR(ReadSubgraph(ctx, &tfl::WhileOptions::cond_subgraph_index, "cond", &cond));
  RT_RETURN_IF_ERROR(ReadSubgraph(ctx, &tfl::WhileOptions::body_subgraph_index, "body", &body));
  const uint32_t n = ctx.num_inputs();
  if (ctx.subgraph_inputs_size(cond) != n || ctx.subgraph_inputs_size(body) != n || ctx.num_outputs() != n ||
      ctx.subgraph_outputs_size(body) != n) {
    return ctx.Fail(StatusCode::kInvalidModel,
                    "%u inputs, %u outputs; cond subgraph %d has %u inputs, body subgraph %d has %u inputs and %u "
                    "outputs (all must agree)",
                    n, ctx.num_outputs(), cond, ctx.subgraph_inputs_size(cond), body, ctx.subgraph_inputs_size(body),
                    ctx.subgraph_outputs_size(body));
  }
  if (ctx.subgraph_outputs_size(cond) < 1) {
    return ctx.Fail(StatusCode::kInvalidModel, "cond subgraph %d has no output", cond);
  }
  TensorView c;
  ctx.GetSubgraphOutput(cond, 0, &c);
  if (c.type != TensorType::BOOL || c.bytes < 1) {
    return ctx.Fail(StatusCode::kInvalidModel, "cond subgraph %d output 0 must be BOOL", cond);
  }
  for (uint32_t k = 0; k < n; ++k) {
    TensorView in, out, ci, bi, bo;
    ctx.GetInput(k, &in);
    ctx.GetOutput(k, &out);
    ctx.GetSubgraphInput(cond, k, &ci);
    ctx.GetSubgraphInput(body, k, &bi);
    ctx.GetSubgraphOutput(body, k, &bo);
    RT_RETURN_IF_ERROR(CheckSameBytes(ctx, out, in, "output", k));
    RT_RETURN_IF_ERROR(CheckSameBytes(ctx, ci, in, "cond input", k));
    RT_RETURN_IF_ERROR(CheckSameBytes(ctx, bi, in, "body input", k));
    RT_RETURN_IF_ERROR(CheckSameBytes(ctx, bo, in, "body output", k));
  }
  return SetOpData(ctx, SubgraphPair{static_cast<uint32_t>(cond), static_cast<uint32_t>(body)});
}

StatusCode WhileEval(KernelContext& ctx) {
  const auto* d = static_cast<const SubgraphPair*>(ctx.op_data());
  const uint32_t cond = d->first, body = d->second;
  RT_RETURN_IF_ERROR(OpInputsToSubgraph(ctx, 0, cond));
  // The op's outputs carry the loop state from here on (TFLM copies inputs to outputs first).
  RT_RETURN_IF_ERROR(OpInputsToOpOutputs(ctx));
  RT_RETURN_IF_ERROR(ctx.InvokeSubgraph(cond));
  TensorView c;
  ctx.GetSubgraphOutput(cond, 0, &c);
  bool go = false;
  RT_RETURN_IF_ERROR(ReadCondition(ctx, c, &go));
  while (go) {
    RT_RETURN_IF_ERROR(OpOutputsToSubgraphInputs(ctx, body));
    RT_RETURN_IF_ERROR(ctx.InvokeSubgraph(body));
    RT_RETURN_IF_ERROR(SubgraphOutputsToOpOutputs(ctx, body));
    RT_RETURN_IF_ERROR(OpOutputsToSubgraphInputs(ctx, cond));
    RT_RETURN_IF_ERROR(ctx.InvokeSubgraph(cond));
    ctx.GetSubgraphOutput(cond, 0, &c);
    RT_RETURN_IF_ERROR(ReadCondition(ctx, c, &go));
  }
  return StatusCode::kOk;
}

// ---- IF ---------------------------------------------------------------------------------------

StatusCode IfPrepare(KernelContext& ctx) {
  int32_t then_s = 0, else_s = 0;
  RT_RETURN_IF_ERROR(ReadSubgraph(ctx, &tfl::IfOptions::then_subgraph_index, "then", &then_s));
  RT_RETURN_IF_ERROR(ReadSubgraph(ctx, &tfl::IfOptions::else_subgraph_index, "else", &else_s));
  if (ctx.num_inputs() < 1) return ctx.Fail(StatusCode::kInvalidModel, "IF needs a condition input");
  TensorView cond;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &cond));
  if (cond.type != TensorType::BOOL || cond.bytes < 1) {
    return ctx.Fail(StatusCode::kInvalidModel, "condition must be a non-empty BOOL tensor");
  }
  const uint32_t n = ctx.num_inputs() - 1;
  const int32_t branches[2] = {then_s, else_s};
  for (int32_t s : branches) {
    if (ctx.subgraph_inputs_size(s) != n || ctx.subgraph_outputs_size(s) != ctx.num_outputs()) {
      return ctx.Fail(StatusCode::kInvalidModel,
                      "branch subgraph %d has %u inputs and %u outputs; op passes %u and takes %u", s,
                      ctx.subgraph_inputs_size(s), ctx.subgraph_outputs_size(s), n, ctx.num_outputs());
    }
    for (uint32_t k = 0; k < n; ++k) {
      TensorView in, bi;
      ctx.GetInput(k + 1, &in);
      ctx.GetSubgraphInput(s, k, &bi);
      RT_RETURN_IF_ERROR(CheckSameBytes(ctx, bi, in, "branch input", k));
    }
    for (uint32_t k = 0; k < ctx.num_outputs(); ++k) {
      TensorView out, bo;
      ctx.GetOutput(k, &out);
      ctx.GetSubgraphOutput(s, k, &bo);
      RT_RETURN_IF_ERROR(CheckSameBytes(ctx, out, bo, "branch output", k));
    }
  }
  return SetOpData(ctx, SubgraphPair{static_cast<uint32_t>(then_s), static_cast<uint32_t>(else_s)});
}

StatusCode IfEval(KernelContext& ctx) {
  const auto* d = static_cast<const SubgraphPair*>(ctx.op_data());
  TensorView cond;
  ctx.GetInput(0, &cond);
  bool value = false;
  RT_RETURN_IF_ERROR(ReadCondition(ctx, cond, &value));
  const uint32_t s = value ? d->first : d->second;
  RT_RETURN_IF_ERROR(OpInputsToSubgraph(ctx, 1, s));
  RT_RETURN_IF_ERROR(ctx.InvokeSubgraph(s));
  return SubgraphOutputsToOpOutputs(ctx, s);
}

// ---- CALL_ONCE --------------------------------------------------------------------------------

struct CallOnceData {
  uint32_t init;
  bool has_run;
};

StatusCode CallOncePrepare(KernelContext& ctx) {
  int32_t init = 0;
  RT_RETURN_IF_ERROR(ReadSubgraph(ctx, &tfl::CallOnceOptions::init_subgraph_index, "init", &init));
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 0, 0));
  return SetOpData(ctx, CallOnceData{static_cast<uint32_t>(init), false});
}

StatusCode CallOnceEval(KernelContext& ctx) {
  auto* d = static_cast<CallOnceData*>(ctx.op_data());
  if (d->has_run) return StatusCode::kOk;
  RT_RETURN_IF_ERROR(ctx.InvokeSubgraph(d->init));
  d->has_run = true;
  return StatusCode::kOk;
}

// After Reset the next Invoke runs the init subgraph again, as a fresh interpreter would.
StatusCode CallOnceReset(KernelContext& ctx) {
  auto* d = static_cast<CallOnceData*>(ctx.op_data());
  if (d != nullptr) d->has_run = false;
  return StatusCode::kOk;
}

const KernelRegistration kWhile{"WHILE", &WhilePrepare, &WhileEval};
const KernelRegistration kIf{"IF", &IfPrepare, &IfEval};
const KernelRegistration kCallOnce{"CALL_ONCE", &CallOncePrepare, &CallOnceEval, &CallOnceReset};

}  // namespace

const KernelRegistration* Register_WHILE() { return &kWhile; }
const KernelRegistration* Register_IF() { return &kIf; }
const KernelRegistration* Register_CALL_ONCE() { return &kCallOnce; }

}  // namespace arenaplan::rt
