// SVDF kernel tests against TFLM's own svdf_test.cc golden data ("2x2x10": batch 2, input 2,
// 4 units, rank 2, memory 10, ten Invokes): float within 1e-5, int8 input with int16 and int8
// state within one output step of the quantized golden (TFLM's tolerance).
#include <flatbuffers/flatbuffers.h>
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "runtime/kernels/registrations.h"
#include "runtime/standalone_context.h"

namespace arenaplan::rt {
namespace {

const float kInput[40] = {
    0.12609188f,  -0.46347019f, 0.35867718f,  0.36897406f,  0.14278367f,  -1.64410412f, -0.57290924f, 0.12729003f,
    0.49837467f,  0.19278903f,  0.17660543f,  0.52949083f,  -0.11186574f, 0.13164264f,  -0.72674477f, -0.5683046f,
    -0.68892461f, 0.37783599f,  -0.63690937f, 0.44483393f,  -0.81299269f, -0.86831826f, -0.95760226f, 1.82078898f,
    -1.45006323f, -0.82251364f, -1.65087092f, -1.89238167f, 0.03966608f,  -0.24936394f, 2.06740379f,  -1.51439476f,
    0.11771342f,  -0.23761693f, 0.31088525f,  -1.55601168f, -0.89477462f, 1.67204106f,  -0.6230064f,  0.29819036f};
const float kFeature[16] = {-0.31930989f, 0.0079667f,  0.39296314f,  0.37613347f,  0.12416199f,  0.15785322f,
                            0.27901134f,  0.3905206f,  0.21931258f,  -0.36137494f, -0.10640851f, 0.31053296f,
                            -0.36118156f, -0.0976817f, -0.36916667f, 0.22197971f};
const float kTime[80] = {
    -0.31930989f, 0.37613347f,  0.27901134f,  -0.36137494f, -0.36118156f, 0.22197971f,  0.27557442f,  -0.06634006f,
    0.0079667f,   0.12416199f,  0.3905206f,   -0.10640851f, -0.0976817f,  0.15294972f,  0.39635518f,  -0.02702999f,
    0.39296314f,  0.15785322f,  0.21931258f,  0.31053296f,  -0.36916667f, 0.38031587f,  -0.21580373f, 0.27072677f,
    0.23622236f,  0.34936687f,  0.18174365f,  0.35907319f,  -0.17493086f, 0.324846f,    -0.10781813f, 0.27201805f,
    0.14324132f,  -0.23681851f, -0.27115166f, -0.01580888f, -0.14943552f, 0.15465137f,  0.09784451f,  -0.0337657f,
    -0.14884081f, 0.19931212f,  -0.36002168f, 0.34663299f,  -0.11405486f, 0.12672701f,  0.39463779f,  -0.07886535f,
    -0.06384811f, 0.08249187f,  -0.26816407f, -0.19905911f, 0.29211238f,  0.31264046f,  -0.28664589f, 0.05698794f,
    0.11613581f,  0.14078894f,  0.02187902f,  -0.21781836f, -0.15567942f, 0.08693647f,  -0.38256618f, 0.36580828f,
    -0.22922277f, -0.0226903f,  0.12878349f,  -0.28122205f, -0.10850525f, -0.11955214f, 0.27179423f,  -0.04710215f,
    0.31069002f,  0.22672787f,  0.09580326f,  0.08682203f,  0.1258215f,   0.1851041f,   0.29228821f,  0.12366763f};
const float kGolden[80] = {
    -0.044205f, -0.013757f, 0.050369f,  -0.018447f, 0.073010f,  0.025142f,  -0.021154f, 0.013551f,  -0.209613f,
    -0.062421f, 0.150209f,  -0.108334f, 0.028256f,  -0.006950f, -0.030885f, 0.009603f,  -0.076800f, -0.037075f,
    -0.087198f, -0.155183f, 0.091069f,  0.098446f,  -0.016083f, 0.106475f,  -0.082123f, -0.162238f, -0.084434f,
    -0.141074f, -0.029340f, -0.090685f, 0.053302f,  -0.030604f, -0.201440f, 0.088424f,  0.139877f,  0.012416f,
    -0.113212f, 0.103893f,  -0.100842f, 0.122780f,  -0.166632f, -0.116705f, 0.175298f,  -0.047163f, 0.313077f,
    -0.166485f, -0.285860f, 0.129069f,  -0.625911f, 0.046134f,  0.138081f,  -0.129581f, -0.521455f, -0.061579f,
    0.230289f,  0.114963f,  -0.216693f, -0.161643f, -0.179177f, -0.052599f, -0.213239f, 0.029502f,  0.260858f,
    0.275045f,  -0.213689f, -0.323608f, -0.285635f, -0.317687f, -0.324092f, -0.317972f, -0.208450f, -0.462504f,
    -0.255126f, -0.218576f, -0.041528f, 0.179421f,  -0.440583f, 0.072127f,  -0.284136f, 0.241570f};

struct OpHolder {
  flatbuffers::FlatBufferBuilder fbb;
  const tfl::Operator* op = nullptr;
};

std::unique_ptr<OpHolder> SvdfOp(int32_t rank, tfl::ActivationFunctionType act) {
  auto h = std::make_unique<OpHolder>();
  auto opts = tfl::CreateSVDFOptions(h->fbb, rank, act);
  auto op = tfl::CreateOperator(h->fbb, 0, 0, 0, tfl::BuiltinOptions::SVDFOptions, opts.Union());
  h->fbb.Finish(op);
  h->op = flatbuffers::GetRoot<tfl::Operator>(h->fbb.GetBufferPointer());
  return h;
}

const KernelRegistration& Svdf() { return *Register_SVDF(); }

int32_t in_dims[2] = {2, 2}, wf_dims[2] = {8, 2}, wt_dims[2] = {8, 10}, b_dims[1] = {4}, st_dims[2] = {2, 80},
        out_dims[2] = {2, 4};

TEST(SvdfTest, FloatMatchesTflmGoldenOverTenInvokes) {
  std::vector<float> input(4), feature(kFeature, kFeature + 16), time(kTime, kTime + 80), bias(4, 0.0f),
      state(160, 0.0f), output(8);
  TensorView vi = MakeView(input.data(), TensorType::FLOAT32, in_dims, 2);
  TensorView vf = MakeView(feature.data(), TensorType::FLOAT32, wf_dims, 2);
  TensorView vt = MakeView(time.data(), TensorType::FLOAT32, wt_dims, 2);
  TensorView vb = MakeView(bias.data(), TensorType::FLOAT32, b_dims, 1);
  TensorView vs = MakeView(state.data(), TensorType::FLOAT32, st_dims, 2);
  TensorView vo = MakeView(output.data(), TensorType::FLOAT32, out_dims, 2);
  TensorView* ins[] = {&vi, &vf, &vt, &vb, &vs};
  TensorView* outs[] = {&vo};
  auto op = SvdfOp(2, tfl::ActivationFunctionType::NONE);
  std::vector<uint8_t> mem(4096);
  StandaloneContext ctx(ins, 5, outs, 1, op->op, mem.data(), mem.size());
  ASSERT_EQ(ctx.Prepare(Svdf()), StatusCode::kOk) << ctx.error().text;
  for (int step = 0; step < 10; ++step) {
    std::copy(kInput + 4 * step, kInput + 4 * step + 4, input.begin());
    ASSERT_EQ(ctx.Eval(Svdf()), StatusCode::kOk);
    for (int i = 0; i < 8; ++i) EXPECT_NEAR(output[i], kGolden[8 * step + i], 1e-5) << step << "/" << i;
  }
}

int8_t Q8(float v, float scale, int32_t zp) {
  const long q = std::lround(v / scale) + zp;
  return static_cast<int8_t>(q < -128 ? -128 : (q > 127 ? 127 : q));
}

template <typename T>
void RunQuantized(TensorType state_type) {
  const float tmax = static_cast<float>(sizeof(T) == 2 ? 32767 : 127);
  const float in_scale = 2.5f / 127, wf_scale = 1.0f / 127, wt_scale = 1.0f / tmax, st_scale = 1.49f / tmax,
              out_scale = 1.0f / 127;
  std::vector<int8_t> input(4), feature(16), output(8);
  std::vector<T> time(80), state(160, 0);
  std::vector<int32_t> bias(4, 0);
  for (int i = 0; i < 16; ++i) feature[i] = Q8(kFeature[i], wf_scale, 0);
  for (int i = 0; i < 80; ++i) {
    const long q = std::lround(kTime[i] / wt_scale);
    time[i] = static_cast<T>(q < -tmax - 1 ? -tmax - 1 : (q > tmax ? tmax : q));
  }
  TensorView vi = MakeView(input.data(), TensorType::INT8, in_dims, 2, in_scale, 0);
  TensorView vf = MakeView(feature.data(), TensorType::INT8, wf_dims, 2, wf_scale, 0);
  TensorView vt = MakeView(time.data(), state_type, wt_dims, 2, wt_scale, 0);
  TensorView vb = MakeView(bias.data(), TensorType::INT32, b_dims, 1, wt_scale * st_scale, 0);
  TensorView vs = MakeView(state.data(), state_type, st_dims, 2, st_scale, 0);
  TensorView vo = MakeView(output.data(), TensorType::INT8, out_dims, 2, out_scale, 0);
  TensorView* ins[] = {&vi, &vf, &vt, &vb, &vs};
  TensorView* outs[] = {&vo};
  auto op = SvdfOp(2, tfl::ActivationFunctionType::RELU);
  std::vector<uint8_t> mem(4096);
  StandaloneContext ctx(ins, 5, outs, 1, op->op, mem.data(), mem.size());
  ASSERT_EQ(ctx.Prepare(Svdf()), StatusCode::kOk) << ctx.error().text;
  for (int step = 0; step < 10; ++step) {
    for (int i = 0; i < 4; ++i) input[i] = Q8(kInput[4 * step + i], in_scale, 0);
    ASSERT_EQ(ctx.Eval(Svdf()), StatusCode::kOk);
    for (int i = 0; i < 8; ++i) {
      // TFLM's integer SVDF ignores the fused RELU (the golden keeps negative values).
      EXPECT_NEAR(output[i], Q8(kGolden[8 * step + i], out_scale, 0), 1) << step << "/" << i;
    }
  }
}

TEST(SvdfTest, Int8WithInt16StateMatchesTflmGolden) { RunQuantized<int16_t>(TensorType::INT16); }
TEST(SvdfTest, Int8WithInt8StateMatchesTflmGolden) { RunQuantized<int8_t>(TensorType::INT8); }

TEST(SvdfTest, StateShiftsLeftAndNewestFeatureGoesLast) {
  // batch 1, input 1, one filter, memory 3, rank 1, float: weights 1, time weights (1, 10, 100).
  float x = 0.0f, wf = 1.0f, wt[3] = {1.0f, 10.0f, 100.0f}, state[3] = {0, 0, 0}, out = 0.0f;
  int32_t id[2] = {1, 1}, fd[2] = {1, 1}, td[2] = {1, 3}, sd[2] = {1, 3}, od[2] = {1, 1};
  TensorView vi = MakeView(&x, TensorType::FLOAT32, id, 2);
  TensorView vf = MakeView(&wf, TensorType::FLOAT32, fd, 2);
  TensorView vt = MakeView(wt, TensorType::FLOAT32, td, 2);
  TensorView vs = MakeView(state, TensorType::FLOAT32, sd, 2);
  TensorView vo = MakeView(&out, TensorType::FLOAT32, od, 2);
  TensorView* ins[] = {&vi, &vf, &vt, nullptr, &vs};  // bias omitted
  TensorView* outs[] = {&vo};
  auto op = SvdfOp(1, tfl::ActivationFunctionType::NONE);
  std::vector<uint8_t> mem(1024);
  StandaloneContext ctx(ins, 5, outs, 1, op->op, mem.data(), mem.size());
  ASSERT_EQ(ctx.Prepare(Svdf()), StatusCode::kOk) << ctx.error().text;
  const float xs[3] = {1.0f, 2.0f, 3.0f};
  const float expected[3] = {100.0f, 10.0f + 200.0f, 1.0f + 20.0f + 300.0f};
  for (int i = 0; i < 3; ++i) {
    x = xs[i];
    ASSERT_EQ(ctx.Eval(Svdf()), StatusCode::kOk);
    EXPECT_EQ(out, expected[i]) << i;
  }
  EXPECT_EQ(state[0], 1.0f);
  EXPECT_EQ(state[2], 3.0f);
}

TEST(SvdfTest, RejectsBadShapesAndTypes) {
  std::vector<float> buf(200, 0.0f);
  int32_t bad_state[2] = {2, 79};
  TensorView vi = MakeView(buf.data(), TensorType::FLOAT32, in_dims, 2);
  TensorView vf = MakeView(buf.data(), TensorType::FLOAT32, wf_dims, 2);
  TensorView vt = MakeView(buf.data(), TensorType::FLOAT32, wt_dims, 2);
  TensorView vs = MakeView(buf.data(), TensorType::FLOAT32, bad_state, 2);
  TensorView vo = MakeView(buf.data(), TensorType::FLOAT32, out_dims, 2);
  TensorView* ins[] = {&vi, &vf, &vt, nullptr, &vs};
  TensorView* outs[] = {&vo};
  std::vector<uint8_t> mem(4096);
  {
    auto op = SvdfOp(2, tfl::ActivationFunctionType::NONE);
    StandaloneContext ctx(ins, 5, outs, 1, op->op, mem.data(), mem.size());
    EXPECT_EQ(ctx.Prepare(Svdf()), StatusCode::kInvalidModel);
    EXPECT_NE(std::string(ctx.error().text).find("activation state"), std::string::npos) << ctx.error().text;
  }
  {
    auto op = SvdfOp(3, tfl::ActivationFunctionType::NONE);  // 8 filters not a multiple of rank 3
    vs = MakeView(buf.data(), TensorType::FLOAT32, st_dims, 2);
    StandaloneContext ctx(ins, 5, outs, 1, op->op, mem.data(), mem.size());
    EXPECT_EQ(ctx.Prepare(Svdf()), StatusCode::kInvalidModel);
  }
  {
    auto op = SvdfOp(2, tfl::ActivationFunctionType::NONE);
    vi.type = TensorType::INT16;
    StandaloneContext ctx(ins, 5, outs, 1, op->op, mem.data(), mem.size());
    EXPECT_EQ(ctx.Prepare(Svdf()), StatusCode::kUnsupported);
  }
}

}  // namespace
}  // namespace arenaplan::rt
