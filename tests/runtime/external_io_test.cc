// Application-owned I/O (InterpreterOptions::external_io, BindInput / BindOutput) and kept tensors
// (InterpreterOptions::keep_tensors) on the hand-worked chain of chain_testutil.h.
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

struct ChainRun {
  explicit ChainRun(InterpreterOptions opts) : model(ChainModel()), arena(4096) {
    interp = std::make_unique<Interpreter>(model.data(), model.size(), AllOpsResolver(), arena.data(), 4096, opts);
  }
  std::vector<uint8_t> model;
  AlignedBytes arena;
  std::unique_ptr<Interpreter> interp;
};

std::vector<float> Floats(const void* p) {
  std::vector<float> v(4);
  std::memcpy(v.data(), p, 16);
  return v;
}

const float kInput[4] = {1, 2, 3, 4};

TEST(ExternalIoTest, BoundBuffersAreUsedInPlaceAndLeaveTheHead) {
  InterpreterOptions opts;
  opts.external_io = ExternalIo::kBoth;
  ChainRun r(opts);
  Interpreter& in = *r.interp;
  EXPECT_EQ(in.BindInput(0, r.arena.data(), 16), StatusCode::kBadState);  // before AllocateTensors
  ASSERT_EQ(in.AllocateTensors(), StatusCode::kOk) << in.error_message();
  EXPECT_EQ(in.memory_record().planned_buffers, 2u);  // t1, t2
  EXPECT_EQ(in.memory_record().head_bytes, 32u);      // t1 and t2 are both alive at step 2
  EXPECT_EQ(in.memory_record().external_table_bytes, 2 * sizeof(void*));
  EXPECT_EQ(in.input(0).data, nullptr);

  EXPECT_EQ(in.Invoke(), StatusCode::kBadState);
  EXPECT_NE(std::string(in.error_message()).find("input 0 (in) is external and has no buffer"), std::string::npos)
      << in.error_message();

  AlignedBytes app_in(16), app_out(16);
  EXPECT_EQ(in.BindInput(0, app_in.data(), 12), StatusCode::kBadArgument);
  EXPECT_STREQ(in.error_message(), "input 0 (in): buffer of 12 bytes, the tensor needs 16");
  EXPECT_EQ(in.BindInput(0, app_in.data() + 4, 16), StatusCode::kBadArgument);
  EXPECT_NE(std::string(in.error_message()).find("input 0 (in): buffer at 0x"), std::string::npos);
  EXPECT_NE(std::string(in.error_message()).find("is not 16-byte aligned"), std::string::npos);
  EXPECT_EQ(in.BindInput(0, nullptr, 16), StatusCode::kBadArgument);
  EXPECT_EQ(in.BindInput(1, app_in.data(), 16), StatusCode::kBadArgument);
  EXPECT_STREQ(in.error_message(), "input 1 out of range (1 inputs)");

  ASSERT_EQ(in.BindInput(0, app_in.data(), 16), StatusCode::kOk) << in.error_message();
  EXPECT_EQ(in.Invoke(), StatusCode::kBadState);  // the output is still unbound
  EXPECT_NE(std::string(in.error_message()).find("output 0 (out)"), std::string::npos);
  ASSERT_EQ(in.BindOutput(0, app_out.data(), 16), StatusCode::kOk) << in.error_message();
  EXPECT_EQ(in.input(0).data, app_in.data());
  std::memcpy(app_in.data(), kInput, 16);
  ASSERT_EQ(in.Invoke(), StatusCode::kOk) << in.error_message();
  EXPECT_EQ(Floats(app_out.data()), (std::vector<float>{3, 5, 7, 9}));  // (x + 0.5) * 2
}

TEST(ExternalIoTest, OnlyTheNamedSideIsExternal) {
  InterpreterOptions opts;
  opts.external_io = ExternalIo::kInputs;
  ChainRun r(opts);
  Interpreter& in = *r.interp;
  ASSERT_EQ(in.AllocateTensors(), StatusCode::kOk) << in.error_message();
  AlignedBytes buf(16);
  EXPECT_EQ(in.BindOutput(0, buf.data(), 16), StatusCode::kBadArgument);
  EXPECT_STREQ(in.error_message(), "output 0 (out) is not external (InterpreterOptions::external_io)");
  EXPECT_NE(in.output(0).data, nullptr);

  ChainRun plain{InterpreterOptions()};
  ASSERT_EQ(plain.interp->AllocateTensors(), StatusCode::kOk);
  EXPECT_EQ(plain.interp->BindInput(0, buf.data(), 16), StatusCode::kBadArgument);
}

TEST(ExternalIoTest, KeptTensorHoldsItsBytesAfterInvoke) {
  const uint32_t keep[] = {2};  // t1
  for (const bool kept : {false, true}) {
    SCOPED_TRACE(kept);
    InterpreterOptions opts;
    if (kept) {
      opts.keep_tensors = keep;
      opts.num_keep_tensors = 1;
    }
    ChainRun r(opts);
    Interpreter& in = *r.interp;
    ASSERT_EQ(in.AllocateTensors(), StatusCode::kOk) << in.error_message();
    // t1 alive to step 3 meets t2 and out there: 48 bytes; else TFLM's greedy reuses it: 32.
    EXPECT_EQ(in.memory_record().head_bytes, kept ? 48u : 32u);
    std::memcpy(in.input(0).data, kInput, 16);
    ASSERT_EQ(in.Invoke(), StatusCode::kOk) << in.error_message();
    EXPECT_EQ(Floats(in.output(0).data), (std::vector<float>{3, 5, 7, 9}));
    // Without keep, `out` took t1's place (offset 0).
    EXPECT_EQ(Floats(in.tensor(2).data),
              kept ? (std::vector<float>{1.5f, 2.5f, 3.5f, 4.5f}) : (std::vector<float>{3, 5, 7, 9}));
  }
  const uint32_t bad[] = {5};
  InterpreterOptions opts;
  opts.keep_tensors = bad;
  opts.num_keep_tensors = 1;
  ChainRun r(opts);
  EXPECT_EQ(r.interp->AllocateTensors(), StatusCode::kBadArgument);
  EXPECT_STREQ(r.interp->error_message(), "kept tensor 5 is not a tensor of subgraph 0 (5 tensors)");
}

}  // namespace
}  // namespace arenaplan::rt
