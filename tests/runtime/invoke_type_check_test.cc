// Types TFLM's kernels accept at Prepare but refuse at Invoke: the runtime must do the same
// (AllocateTensors succeeds, Invoke fails with kUnsupported and names the op). Which ops do that,
// and for which types, comes from the TFLM kernel table (tflm/kernel_table.cc, read from TFLM's
// sources and pinned to the golden errors), not from the runtime: the test takes the elementwise
// ops (one or two inputs of one shape, no options) whose row says "fails at Invoke" and feeds each
// a type outside the row's allowed set.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "model/writer.h"
#include "runtime/interpreter.h"
#include "runtime/op_resolver.h"
#include "tflm/kernels.h"

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
const ElementwiseOp kOps[] = {{"FLOOR", B::FLOOR, 1},           {"NEG", B::NEG, 1},
                              {"ELU", B::ELU, 1},               {"HARD_SWISH", B::HARD_SWISH, 1},
                              {"RELU6", B::RELU6, 1},           {"ZEROS_LIKE", B::ZEROS_LIKE, 1},
                              {"LOG_SOFTMAX", B::LOG_SOFTMAX, 1}, {"FLOOR_DIV", B::FLOOR_DIV, 2},
                              {"FLOOR_MOD", B::FLOOR_MOD, 2},   {"SQUARED_DIFFERENCE", B::SQUARED_DIFFERENCE, 2},
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
  for (MT t : {MT::kInt32, MT::kInt16, MT::kInt64, MT::kInt8}) {
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
    std::vector<uint8_t> storage(4096 + 16);
    uint8_t* arena = storage.data() + (16 - reinterpret_cast<uintptr_t>(storage.data()) % 16) % 16;
    Interpreter interp(m.data(), m.size(), AllOpsResolver(), arena, 4096);
    const StatusCode alloc = interp.AllocateTensors();
    EXPECT_EQ(alloc, StatusCode::kOk) << interp.error_message();
    if (alloc != StatusCode::kOk) continue;
    EXPECT_EQ(interp.Invoke(), StatusCode::kUnsupported);
    EXPECT_NE(std::string(interp.error_message()).find(op.name), std::string::npos) << interp.error_message();
    ++checked;
  }
  EXPECT_GE(checked, 10);  // the table marks all of these but one as failing at Invoke
}

}  // namespace
}  // namespace arenaplan::rt
