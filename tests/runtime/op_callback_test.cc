// The interpreter's per-op callback (InterpreterOptions::after_op) on a hand-worked chain:
//
//   in[1,4] --ADD(c = 0.5)--> t1 --ADD(t1, t1)--> t2 --RESHAPE--> out[4]
//   in = 1,2,3,4  ->  t1 = 1.5,2.5,3.5,4.5  ->  t2 = out = 3,5,7,9
//
// It runs after each op with that op's output in place, costs the arena nothing, and a non-kOk
// return stops Invoke naming the op.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "model/writer.h"
#include "runtime/chain_testutil.h"
#include "runtime/interpreter.h"
#include "util/aligned_bytes.h"

namespace arenaplan::rt {
namespace {

struct Seen {
  std::vector<uint32_t> ops;
  std::vector<std::vector<float>> outputs;  // the op's output right after it ran
  uint32_t fail_at = 99;
};

StatusCode Record(void* user, const Interpreter& interp, uint32_t subgraph, uint32_t op) {
  auto* seen = static_cast<Seen*>(user);
  EXPECT_EQ(subgraph, 0u);
  seen->ops.push_back(op);
  const TensorView t = interp.tensor(op + 2);  // op k writes tensor k + 2
  seen->outputs.emplace_back(t.As<float>(), t.As<float>() + t.bytes / 4);
  return op == seen->fail_at ? StatusCode::kKernelError : StatusCode::kOk;
}

struct ChainRun {
  explicit ChainRun(InterpreterOptions opts) : model(ChainModel()), arena(4096) {
    base = arena.data();
    interp = std::make_unique<Interpreter>(model.data(), model.size(), AllOpsResolver(), base, arena.size(), opts);
  }
  StatusCode Invoke() {
    const float in[4] = {1, 2, 3, 4};
    std::memcpy(interp->input(0).data, in, sizeof in);
    return interp->Invoke();
  }
  std::vector<uint8_t> model;
  AlignedBytes arena;
  uint8_t* base = nullptr;
  std::unique_ptr<Interpreter> interp;
};

TEST(OpCallbackTest, RunsAfterEachOpWithItsOutputInPlace) {
  Seen seen;
  InterpreterOptions opts;
  opts.after_op = &Record;
  opts.after_op_user = &seen;
  ChainRun r(opts);
  ASSERT_EQ(r.interp->AllocateTensors(), StatusCode::kOk) << r.interp->error_message();
  ASSERT_EQ(r.Invoke(), StatusCode::kOk) << r.interp->error_message();
  EXPECT_EQ(seen.ops, (std::vector<uint32_t>{0, 1, 2}));
  ASSERT_EQ(seen.outputs.size(), 3u);
  EXPECT_EQ(seen.outputs[0], (std::vector<float>{1.5f, 2.5f, 3.5f, 4.5f}));
  EXPECT_EQ(seen.outputs[1], (std::vector<float>{3, 5, 7, 9}));
  EXPECT_EQ(seen.outputs[2], (std::vector<float>{3, 5, 7, 9}));
}

TEST(OpCallbackTest, CostsTheArenaNothing) {
  Seen seen;
  InterpreterOptions with;
  with.after_op = &Record;
  with.after_op_user = &seen;
  ChainRun a(with), b{InterpreterOptions()};
  ASSERT_EQ(a.interp->AllocateTensors(), StatusCode::kOk);
  ASSERT_EQ(b.interp->AllocateTensors(), StatusCode::kOk);
  ASSERT_EQ(a.Invoke(), StatusCode::kOk);
  ASSERT_EQ(b.Invoke(), StatusCode::kOk);
  const MemoryRecord &ra = a.interp->memory_record(), &rb = b.interp->memory_record();
  EXPECT_EQ(ra.head_bytes, rb.head_bytes);
  EXPECT_EQ(ra.tail_bytes, rb.tail_bytes);
  EXPECT_EQ(ra.min_arena_bytes, rb.min_arena_bytes);
  EXPECT_EQ(a.interp->arena_used_bytes(), b.interp->arena_used_bytes());
  for (uint32_t t = 0; t < 5; ++t) {  // same plan: every tensor at the same offset
    if (t == 1) continue;             // the constant lives in the model
    EXPECT_EQ(static_cast<uint8_t*>(a.interp->tensor(t).data) - a.base,
              static_cast<uint8_t*>(b.interp->tensor(t).data) - b.base)
        << "tensor " << t;
  }
}

TEST(OpCallbackTest, AnErrorStopsInvokeNamingTheOp) {
  Seen seen;
  seen.fail_at = 1;
  InterpreterOptions opts;
  opts.after_op = &Record;
  opts.after_op_user = &seen;
  ChainRun r(opts);
  ASSERT_EQ(r.interp->AllocateTensors(), StatusCode::kOk);
  EXPECT_EQ(r.Invoke(), StatusCode::kKernelError);
  EXPECT_EQ(seen.ops, (std::vector<uint32_t>{0, 1}));
  EXPECT_NE(std::string(r.interp->error_message()).find("op 1 (ADD)"), std::string::npos) << r.interp->error_message();
  EXPECT_NE(std::string(r.interp->error_message()).find("callback"), std::string::npos);
}

}  // namespace
}  // namespace arenaplan::rt
