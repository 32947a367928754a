// Types TFLM's kernels accept at Prepare but refuse at Invoke: the runtime must do the same
// (AllocateTensors succeeds, Invoke fails with kUnsupported and names the op). Which ops do that,
// and for which types, comes from the TFLM kernel table (tflm/kernel_table.cc, read from TFLM's
// sources and pinned to the golden errors), not from the runtime: the test takes the elementwise
// ops (one or two inputs of one shape, no options) whose row says "fails at Invoke" and feeds each
// a type outside the row's allowed set.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "model/writer.h"
#include "runtime/interpreter.h"
#include "runtime/kernels/registrations.h"
#include "runtime/op_resolver.h"
#include "runtime/standalone_context.h"
#include "tflm/kernels.h"
#include "util/aligned_bytes.h"

namespace arenaplan::rt {
namespace {

using MT = model::TensorType;

// Ops whose inputs and output all have one shape and that need no options (TFLM: builtin data
// may be absent), with the TFLM name, the runtime's builtin code and the number of inputs.
struct ElementwiseOp {
  const char* name;
  tfl::BuiltinOperator code;
  int inputs;
};
using B = tfl::BuiltinOperator;
const ElementwiseOp kOps[] = {{"FLOOR", B::FLOOR, 1},
                              {"NEG", B::NEG, 1},
                              {"ELU", B::ELU, 1},
                              {"HARD_SWISH", B::HARD_SWISH, 1},
                              {"RELU6", B::RELU6, 1},
                              {"ZEROS_LIKE", B::ZEROS_LIKE, 1},
                              {"LOG_SOFTMAX", B::LOG_SOFTMAX, 1},
                              {"FLOOR_DIV", B::FLOOR_DIV, 2},
                              {"FLOOR_MOD", B::FLOOR_MOD, 2},
                              {"SQUARED_DIFFERENCE", B::SQUARED_DIFFERENCE, 2},
                              {"PRELU", B::PRELU, 2}};

std::vector<uint8_t> ElementwiseModel(const ElementwiseOp& op, MT type) {
  model::ModelSpec spec;
  const uint32_t op_code = model::AddOperatorCode(spec, static_cast<int32_t>(op.code));
  model::SubgraphSpec sg;
  model::OperatorSpec node{op_code, {}, {op.inputs}};
  for (int k = 0; k < op.inputs; ++k) {
    sg.tensors.push_back(model::TensorSpec{"x" + std::to_string(k), type, {1, 4}});
    sg.inputs.push_back(k);
    node.inputs.push_back(k);
  }
  sg.tensors.push_back(model::TensorSpec{"y", type, {1, 4}});
  sg.outputs = {op.inputs};
  sg.operators = {node};
  spec.subgraphs.push_back(sg);
  return model::WriteModel(spec);
}

// The first of these types the row refuses.
bool RefusedType(const tflm::KernelEntry& e, MT* type) {
  for (MT t : {MT::kInt32, MT::kInt16, MT::kInt64, MT::kInt8, MT::kUInt8}) {
    if ((e.check.allowed & tflm::TypeSet({t})) == 0) {
      *type = t;
      return true;
    }
  }
  return false;
}

TEST(InvokeTypeCheckTest, RefusedAtInvokeWhereTflmRefusesAtInvoke) {
  int checked = 0;
  for (const ElementwiseOp& op : kOps) {
    SCOPED_TRACE(op.name);
    const tflm::KernelEntry* e = tflm::FindKernelEntry(op.name);
    ASSERT_NE(e, nullptr);
    if (e->types != tflm::TypeRule::kAllowedTypes || !e->check.at_invoke) continue;
    MT type{};
    ASSERT_TRUE(RefusedType(*e, &type));
    const std::vector<uint8_t> m = ElementwiseModel(op, type);
    AlignedBytes arena(4096);
    Interpreter interp(m.data(), m.size(), AllOpsResolver(), arena.data(), arena.size());
    const StatusCode alloc = interp.AllocateTensors();
    EXPECT_EQ(alloc, StatusCode::kOk) << interp.error_message();
    if (alloc != StatusCode::kOk) continue;
    EXPECT_EQ(interp.Invoke(), StatusCode::kUnsupported);
    EXPECT_NE(std::string(interp.error_message()).find(op.name), std::string::npos) << interp.error_message();
    ++checked;
  }
  EXPECT_GE(checked, 10);  // the table marks all of these but one as failing at Invoke
}

// The same for ops with constant parameter inputs, run through one kernel context: Prepare must
// pass and Eval refuse. Parameters are the identity (zero paddings, the whole slice, ...).
struct Buffer {  // zeroed bytes for `dims` elements of `type`, or int32 values
  std::vector<uint8_t> bytes;
  std::vector<int32_t> dims;
  TensorView view{};
  Buffer(TensorType type, std::vector<int32_t> d, std::vector<int32_t> values = {}) : dims(std::move(d)) {
    size_t n = 1;
    for (int32_t v : dims) n *= static_cast<size_t>(v);
    bytes.assign(values.empty() ? n * TypeSize(type) : values.size() * 4, 0);
    if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
    view = MakeView(bytes.data(), type, dims.data(), static_cast<int32_t>(dims.size()));
  }
};

struct ParamOp {
  const char* name;
  const KernelRegistration* (*kernel)();
  // inputs and outputs for data type t
  std::vector<std::unique_ptr<Buffer>> (*tensors)(TensorType t, uint32_t* num_inputs);
};

std::vector<std::unique_ptr<Buffer>> List(std::vector<Buffer*> b) {
  std::vector<std::unique_ptr<Buffer>> out;
  for (Buffer* x : b) out.emplace_back(x);
  return out;
}
constexpr TensorType I32 = TensorType::INT32;

const ParamOp kParamOps[] = {
    {"PAD", &Register_PAD,
     [](TensorType t, uint32_t* n) {
       *n = 2;
       return List({new Buffer(t, {1, 4}), new Buffer(I32, {2, 2}, {0, 0, 0, 0}), new Buffer(t, {1, 4})});
     }},
    {"PADV2", &Register_PADV2,
     [](TensorType t, uint32_t* n) {
       *n = 3;
       return List(
           {new Buffer(t, {1, 4}), new Buffer(I32, {2, 2}, {0, 0, 0, 0}), new Buffer(t, {1}), new Buffer(t, {1, 4})});
     }},
    {"SLICE", &Register_SLICE,
     [](TensorType t, uint32_t* n) {
       *n = 3;
       return List({new Buffer(t, {4}), new Buffer(I32, {1}, {0}), new Buffer(I32, {1}, {4}), new Buffer(t, {4})});
     }},
    {"DYNAMIC_UPDATE_SLICE", &Register_DYNAMIC_UPDATE_SLICE,
     [](TensorType t, uint32_t* n) {
       *n = 3;
       return List({new Buffer(t, {4}), new Buffer(t, {2}), new Buffer(I32, {1}, {0}), new Buffer(t, {4})});
     }},
    {"CAST", &Register_CAST,
     [](TensorType t, uint32_t* n) {
       *n = 1;
       return List({new Buffer(t, {4}), new Buffer(TensorType::FLOAT32, {4})});
     }},
    {"REDUCE_MAX", &Register_REDUCE_MAX,
     [](TensorType t, uint32_t* n) {
       *n = 2;
       return List({new Buffer(t, {1, 4}), new Buffer(I32, {1}, {1}), new Buffer(t, {1})});
     }},
    {"REDUCE_MIN", &Register_REDUCE_MIN,
     [](TensorType t, uint32_t* n) {
       *n = 2;
       return List({new Buffer(t, {1, 4}), new Buffer(I32, {1}, {1}), new Buffer(t, {1})});
     }},
    {"SUM", &Register_SUM,
     [](TensorType t, uint32_t* n) {
       *n = 2;
       return List({new Buffer(t, {1, 4}), new Buffer(I32, {1}, {1}), new Buffer(t, {1})});
     }},
};

TEST(InvokeTypeCheckTest, OpsWithParameterInputsRefuseAtInvokeToo) {
  int checked = 0;
  for (const ParamOp& op : kParamOps) {
    SCOPED_TRACE(op.name);
    const tflm::KernelEntry* e = tflm::FindKernelEntry(op.name);
    ASSERT_NE(e, nullptr);
    if (e->types != tflm::TypeRule::kAllowedTypes || !e->check.at_invoke) continue;
    MT mt{};
    ASSERT_TRUE(RefusedType(*e, &mt));
    uint32_t num_inputs = 0;
    auto buffers = op.tensors(static_cast<TensorType>(mt), &num_inputs);
    std::vector<TensorView*> ins, outs;
    for (size_t k = 0; k < buffers.size(); ++k) (k < num_inputs ? ins : outs).push_back(&buffers[k]->view);
    std::vector<uint8_t> mem(1024);
    StandaloneContext ctx(ins.data(), num_inputs, outs.data(), static_cast<uint32_t>(outs.size()), nullptr, mem.data(),
                          mem.size(), op.name);
    const StatusCode prepared = ctx.Prepare(*op.kernel());
    EXPECT_EQ(prepared, StatusCode::kOk) << ctx.error().text;
    if (prepared != StatusCode::kOk) continue;
    EXPECT_EQ(ctx.Eval(*op.kernel()), StatusCode::kUnsupported) << ctx.error().text;
    ++checked;
  }
  EXPECT_EQ(checked, 8);
}

}  // namespace
}  // namespace arenaplan::rt
