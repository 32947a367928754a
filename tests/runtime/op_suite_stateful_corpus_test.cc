// The op suite's stateful models (SignalDelay, SignalFramer, SignalStacker, SignalOverlapAdd,
// CIRCULAR_BUFFER) over two Invokes on one interpreter: the golden input, then the generator's
// seed-1 input (golden/tflm-x86_64/README.md), as TFLM's stateful golden runs do. The op suite
// has no second-Invoke files, so both Invokes are checked against each op's definition written
// here as a function of the whole input stream (delay: the stream shifted; framer: windows of the
// stream; stacker: windows of frames; overlap-add: the sum of shifted frames; circular buffer: the
// last slots), with the options read from the model; the first Invoke is also checked against
// TFLM's golden output, which pins down the reading of each definition.
#include <flatbuffers/flexbuffers.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>

#include "golden_testutil.h"
#include "runtime/interpreter.h"
#include "runtime/test_inputs.h"
#include "support/shared_dir.h"

namespace arenaplan::testing {
namespace {

std::string Suite(const std::string& rel) { return *SharedDir() + "/op-suite/" + rel; }

// The op's custom name and integer options.
struct OneOp {
  std::string name;
  std::map<std::string, int64_t> options;
};

OneOp ReadOp(const std::vector<uint8_t>& bytes) {
  OneOp r;
  const tfl::Model* m = tfl::GetModel(bytes.data());
  const tfl::Operator* op = m->subgraphs()->Get(0)->operators()->Get(0);
  const tfl::OperatorCode* code = m->operator_codes()->Get(op->opcode_index());
  if (code->custom_code() != nullptr) r.name = code->custom_code()->str();
  if (op->custom_options() != nullptr) {
    const auto map = flexbuffers::GetRoot(op->custom_options()->data(), op->custom_options()->size()).AsMap();
    const auto keys = map.Keys();
    for (size_t i = 0; i < keys.size(); ++i) {
      const auto v = map.Values()[i];
      if (v.IsInt() || v.IsBool()) r.options[keys[i].AsKey()] = v.AsInt64();
    }
  }
  return r;
}

int64_t Opt(const OneOp& op, const char* key) {
  auto it = op.options.find(key);
  EXPECT_NE(it, op.options.end()) << op.name << " has no option " << key;
  return it == op.options.end() ? 0 : it->second;
}

// A tensor's elements as doubles (int8, int16, float32: exact).
std::vector<double> Values(const rt::TensorView& t) {
  std::vector<double> v(t.bytes / rt::TypeSize(t.type));
  for (size_t i = 0; i < v.size(); ++i) {
    if (t.type == rt::TensorType::INT16) v[i] = static_cast<const int16_t*>(t.data)[i];
    if (t.type == rt::TensorType::INT8) v[i] = static_cast<const int8_t*>(t.data)[i];
    if (t.type == rt::TensorType::FLOAT32) v[i] = static_cast<const float*>(t.data)[i];
  }
  return v;
}

// Rows of a stream: rows[r] = row r of every Invoke's input, concatenated.
using Rows = std::vector<std::vector<double>>;
void Append(Rows* rows, const std::vector<double>& input, size_t row_len) {
  rows->resize(input.size() / row_len);
  for (size_t r = 0; r < rows->size(); ++r) {
    (*rows)[r].insert((*rows)[r].end(), input.begin() + r * row_len, input.begin() + (r + 1) * row_len);
  }
}

// Expected output 0 (and output_valid, -1 when there is none) of Invoke t (0-based) given every
// input so far, and the previous expected output (what an op leaves untouched).
struct Expected {
  std::vector<double> out;
  int valid = -1;
};

Expected Delay(const OneOp& op, const Rows& in, size_t frame, size_t t) {
  const size_t d = static_cast<size_t>(Opt(op, "delay_length"));
  Expected e;
  for (const auto& row : in) {
    for (size_t i = t * frame; i < (t + 1) * frame; ++i) e.out.push_back(i < d ? 0 : row[i - d]);
  }
  return e;
}

Expected Framer(const OneOp& op, const Rows& in, size_t row_len, size_t t, const Expected& prev) {
  const size_t size = static_cast<size_t>(Opt(op, "frame_size")), step = static_cast<size_t>(Opt(op, "frame_step"));
  const size_t pre = Opt(op, "prefill") != 0 ? size - step : 0;
  // Frame g is ready once pre + (g + 1) * step samples arrived; frames before the first ready one
  // are skipped, later ones are consecutive windows of the stream (prefill zeros first).
  size_t skipped = 0;
  while (pre + (skipped + 1) * step < size) ++skipped;
  const size_t per_invoke = row_len / step;
  Expected e{prev.out, 1};
  e.out.resize(in.size() * per_invoke * size, 0);
  for (size_t r = 0; r < in.size(); ++r) {
    for (size_t j = 0; j < per_invoke; ++j) {
      const size_t g = t * per_invoke + j;
      if (g < skipped) {
        e.valid = 0;
        continue;
      }
      for (size_t s = 0; s < size; ++s) {
        const size_t x = (g - skipped) * step + s;  // in the prefilled stream
        e.out[(r * per_invoke + j) * size + s] = x < pre ? 0 : in[r][x - pre];
      }
    }
  }
  return e;
}

Expected Stacker(const OneOp& op, const std::vector<std::vector<double>>& frames, size_t t, const Expected& prev) {
  const size_t left = static_cast<size_t>(Opt(op, "stacker_left_context"));
  const size_t window = left + static_cast<size_t>(Opt(op, "stacker_right_context")) + 1;
  const size_t step = static_cast<size_t>(Opt(op, "stacker_step"));
  // The frame stream starts with the first frame left + 1 times; after Invoke t it holds
  // left + 1 + t frames, and the o-th output is frames [o * step, o * step + window) of it.
  std::vector<const std::vector<double>*> stream(left + 1, &frames[0]);
  for (size_t i = 1; i <= t; ++i) stream.push_back(&frames[i]);
  size_t outputs = 0, buffered = 0;
  Expected e{prev.out, 0};
  for (size_t i = 0; i <= t; ++i) {
    buffered += i == 0 ? left + 1 : 1;
    if (buffered < window) continue;
    if (i == t) {
      e.out.clear();
      for (size_t k = 0; k < window; ++k) {
        const auto& f = *stream[outputs * step + k];
        e.out.insert(e.out.end(), f.begin(), f.end());
      }
      e.valid = 1;
    }
    ++outputs;
    buffered -= step;
  }
  return e;
}

Expected OverlapAdd(const OneOp& op, const Rows& in, size_t frame, size_t t, size_t per_invoke, bool int16) {
  const size_t step = static_cast<size_t>(Opt(op, "frame_step"));
  Expected e;
  for (const auto& row : in) {
    // Output sample x sums frame g's sample x - g * step over the frames g that cover it, in order
    // (int16 saturating after each addition, float in float).
    for (size_t x = t * per_invoke * step; x < (t + 1) * per_invoke * step; ++x) {
      double acc = 0;
      float accf = 0;
      for (size_t g = 0; g * step <= x && g < row.size() / frame; ++g) {
        if (x - g * step >= frame) continue;
        const double v = row[g * frame + x - g * step];
        acc = std::clamp(acc + v, -32768.0, 32767.0);
        accf += static_cast<float>(v);
      }
      e.out.push_back(int16 ? acc : accf);
    }
  }
  return e;
}

Expected Circular(const std::vector<std::vector<double>>& inputs, size_t slots, size_t t) {
  Expected e;
  for (size_t s = 0; s < slots; ++s) {
    const size_t back = slots - 1 - s;  // slot s holds the input of Invoke t - back
    if (back > t) {
      e.out.insert(e.out.end(), inputs[0].size(), 0);
    } else {
      e.out.insert(e.out.end(), inputs[t - back].begin(), inputs[t - back].end());
    }
  }
  return e;
}

class OpSuiteStateful : public ::testing::TestWithParam<std::string> {};

TEST_P(OpSuiteStateful, TwoInvokesFollowTheOpsDefinition) {
  REQUIRE_SHARED();
  const std::string stem = GetParam();
  const std::vector<uint8_t> bytes = ReadFileBytes(Suite("models/" + stem + ".tflite"));
  const OneOp op = ReadOp(bytes);
  auto run = MakeRun(bytes, 1u << 20);
  rt::Interpreter& interp = *run->interp;
  ASSERT_EQ(interp.AllocateTensors(), rt::StatusCode::kOk) << interp.error_message();
  const rt::TensorView in = interp.input(0);
  const size_t row_len = static_cast<size_t>(in.dims[in.rank - 1]);
  Rows rows;
  std::vector<std::vector<double>> inputs;
  Expected prev;
  for (uint32_t t = 0; t < 2; ++t) {
    SCOPED_TRACE(stem + " Invoke " + std::to_string(t));
    if (t == 0) {
      const std::vector<uint8_t> golden_in = ReadFileBytes(Suite("golden/tflm-x86_64/io/" + stem + ".in0.bin"));
      ASSERT_EQ(golden_in.size(), in.bytes);
      std::memcpy(in.data, golden_in.data(), in.bytes);
    } else {
      rt::FillGeneratedInput(in, 0, 1);
    }
    inputs.push_back(Values(in));
    Append(&rows, inputs.back(), row_len);
    ASSERT_EQ(interp.Invoke(), rt::StatusCode::kOk) << interp.error_message();
    const rt::TensorView out = interp.output(0);
    if (prev.out.empty()) prev.out.assign(out.bytes / rt::TypeSize(out.type), 0);  // the zeroed arena
    Expected e;
    if (op.name == "SignalDelay") e = Delay(op, rows, row_len, t);
    if (op.name == "SignalFramer") e = Framer(op, rows, row_len, t, prev);
    if (op.name == "SignalStacker") e = Stacker(op, inputs, t, prev);
    if (op.name == "SignalOverlapAdd") {
      const size_t frames = static_cast<size_t>(in.dims[in.rank - 2]);
      Rows frame_rows;  // [.., frames, frame] -> one row of frames x frame samples per leading index
      for (const auto& input : inputs) Append(&frame_rows, input, frames * row_len);
      e = OverlapAdd(op, frame_rows, row_len, t, frames, out.type == rt::TensorType::INT16);
    }
    if (op.name == "CIRCULAR_BUFFER") e = Circular(inputs, static_cast<size_t>(out.dims[1]), t);
    ASSERT_FALSE(e.out.empty()) << "no definition for " << op.name;
    EXPECT_EQ(Values(out), e.out);
    if (e.valid >= 0) {
      ASSERT_EQ(interp.outputs_size(), 2u);
      EXPECT_EQ(*static_cast<const uint8_t*>(interp.output(1).data), e.valid);
    }
    if (t == 0) {  // the definition's reading agrees with TFLM's first output
      for (uint32_t k = 0; k < interp.outputs_size(); ++k) {
        const auto golden = ReadFileBytes(Suite("golden/tflm-x86_64/io/" + stem + ".out" + std::to_string(k) + ".bin"));
        const rt::TensorView o = interp.output(k);
        ASSERT_EQ(golden.size(), o.bytes);
        EXPECT_EQ(std::memcmp(golden.data(), o.data, o.bytes), 0) << "output " << k;
      }
    }
    prev = e;
  }
}

std::vector<std::string> StatefulModels() {
  std::vector<std::string> out;
  if (!SharedDir()) return out;
  for (const auto& row : ReadCsv(*SharedDir() + "/op-suite/golden/tflm-x86_64/arena.csv")) {
    const std::string model = CsvField(row, "model");
    for (const char* kind :
         {"signal_delay", "signal_framer", "signal_stacker", "signal_overlap_add", "circular_buffer"}) {
      if (model.find(kind) != std::string::npos) out.push_back(model.substr(0, model.size() - 7));
    }
  }
  return out;
}

std::string Name(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

INSTANTIATE_TEST_SUITE_P(OpSuite, OpSuiteStateful, ::testing::ValuesIn(StatefulModels()), Name);
CORPUS_SUITE_MAY_BE_EMPTY(OpSuiteStateful);

TEST(OpSuiteStatefulScope, CoversEveryStatefulOp) {
  REQUIRE_SHARED();
  EXPECT_GE(StatefulModels().size(), 9u);
}

}  // namespace
}  // namespace arenaplan::testing
