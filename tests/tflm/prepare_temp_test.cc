// PrepareTempModel on hand-worked TFLM Prepare sequences (x86-64 sizes: TfLiteTensor 64 B,
// TfLiteAffineQuantization 24 B, a zero-point array 8 B for one channel, request array 192 B).
#include <gtest/gtest.h>

#include "tflm/prepare_temp.h"

namespace arenaplan::tflm {
namespace {

using W = OpAllocation::Write;

const TempAllocation kTensor{64, 8, 64, 48};
const TempAllocation kQuant{24, 8, 16, 16};
const TempAllocation kZeroPoints{8, 4, 0, 0};

void QuantizedTensor(PrepareTempModel& m, uint64_t tail) {
  m.Temp(kTensor, tail);
  m.Temp(kQuant, tail);
  m.Temp(kZeroPoints, tail);
}

// REDUCE_MIN int8 (the gen_reduce_min_i8): tail 432 B, six temporaries (input, axis,
// output, input, output, axis; the axis unquantized): 192 + 5 x 96 + ... = temp ends at 704.
TEST(PrepareTemp, SumOfAllTemporariesOfOneNode) {
  PrepareTempModel m;
  m.BeginNode(192);
  QuantizedTensor(m, 432);  // input
  m.Temp(kTensor, 432);     // axis
  QuantizedTensor(m, 432);  // output
  QuantizedTensor(m, 432);
  QuantizedTensor(m, 432);
  m.Temp(kTensor, 432);
  EXPECT_EQ(m.Smallest(0), 432u + 192 + 4 * 96 + 2 * 64);  // 1136, TFLM's measured minimum
  EXPECT_EQ(m.Smallest(1200), 1200u);                      // a larger floor wins
}

// Temporaries are rewound between nodes: only the worst node counts.
TEST(PrepareTemp, NodesDoNotAccumulate) {
  PrepareTempModel m;
  m.BeginNode(192);
  m.Temp(kTensor, 400);
  m.BeginNode(208);  // one scratch request made: the array grew by 16
  m.Temp(kTensor, 400);
  m.Temp(kTensor, 400);
  EXPECT_EQ(m.Smallest(0), 400u + 208 + 128);
}

// CUMSUM int8: OpData (36 B) taken after input (quantized), axis and output (quantized). At 848 B
// it would land on the output's quantization pointers; at 864 B only on their padding.
TEST(PrepareTemp, PersistentBufferMustMissCriticalBytes) {
  PrepareTempModel m;
  m.BeginNode(192);
  QuantizedTensor(m, 386);
  m.Temp(kTensor, 386);
  QuantizedTensor(m, 386);  // output: tensor [352, 416), quantization [416, 440)
  m.Persistent(36, 432, W::kWritten);
  EXPECT_EQ(m.Smallest(0), 864u);
  EXPECT_EQ(m.Safe(0), 864u);
}

// BATCH_MATMUL int16 (gen_batch_matmul_i16_constrhs): the output dims copy, filled last, fits
// between the output tensor's fields [384, 432) and its quantization [448, 464) at 1024 B, hits
// the quantization at 1040 B and clears everything from 1056 B. The transposed data is only
// reserved. TFLM works at 1024 but not at 1040.
TEST(PrepareTemp, FeasibleSizesNeedNotBeMonotonic) {
  PrepareTempModel m;
  m.BeginNode(192);
  QuantizedTensor(m, 432);
  QuantizedTensor(m, 432);
  QuantizedTensor(m, 432);
  m.Persistent(28, 464, W::kWritten);
  m.Persistent(24, 496, W::kWritten);
  m.Persistent(16, 512, W::kWritten);
  m.Persistent(64, 576, W::kUnwritten);
  m.Persistent(16, 592, W::kWrittenLast);
  EXPECT_EQ(m.Smallest(0), 1024u);
  EXPECT_EQ(m.Safe(0), 1056u);
  EXPECT_EQ(m.Smallest(1040), 1056u);
}

// A buffer that is only reserved may overlap anything.
TEST(PrepareTemp, UnwrittenBuffersAreFree) {
  PrepareTempModel m;
  m.BeginNode(192);
  m.Temp(kTensor, 300);
  m.Persistent(256, 560, W::kUnwritten);
  EXPECT_EQ(m.Smallest(0), 560u);  // only the temp allocation itself: 300 + 192 + 64, in 16s
}

}  // namespace
}  // namespace arenaplan::tflm
