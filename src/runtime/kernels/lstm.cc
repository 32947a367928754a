// UNIDIRECTIONAL_SEQUENCE_LSTM, following TFLM's own micro implementation (lstm_eval.h,
// lstm_eval_common.cc, unidirectional_sequence_lstm.cc), which differs from TFLite's: a plain
// LSTM (no peephole, projection, layer norm or CIFG), each gate = act(FC(x) + FC(h)), four
// scratch buffers of batch x state cells (buffer0..3) reused exactly as TFLM reuses them.
// Variants:
//   float32 activations / weights / cell;
//   int8 activations, int8 weights, int32 bias, int16 cell state ("8x8->16");
//   int16 activations, int8 weights, int64 bias, int16 cell state ("16x8->16").
// Integer gates: FC outputs in Q3.12 (scale 2^-12), saturating int16 add, sigmoid/tanh by
// TFLM's 256-entry LUT with linear interpolation, Q0.15 outputs; inter-gate products through
// MultiplyByQuantizedMultiplier. Cost per step: O(batch x state x (input + state)).
// Hidden and cell state are variable tensors (inputs 18 and 19): they persist across Invokes.
#include <cfloat>
#include <cmath>
#include <cstring>

#include "runtime/kernels/registrations.h"
#include "runtime/quantization.h"

namespace arenaplan::rt {

namespace {

// Gates in TFLM's tensor order (offsets from the *Input* indices below).
enum Gate : uint32_t { kGateInput = 0, kGateForget = 1, kGateCell = 2, kGateOutput = 3 };

// Input indices (TFLite's lstm_shared.h).
constexpr uint32_t kInput = 0;
constexpr uint32_t kInputToInputWeights = 1;  // 1..4: input, forget, cell, output
constexpr uint32_t kInputToForgetWeights = kInputToInputWeights + kGateForget;
constexpr uint32_t kRecurrentToInputWeights = 5;  // 5..8
constexpr uint32_t kCellToInputWeights = 9;       // 9..11: peephole (input, forget, output)
constexpr uint32_t kInputGateBias = 12;           // 12..15
constexpr uint32_t kForgetGateBias = kInputGateBias + kGateForget;
constexpr uint32_t kProjectionWeights = 16;
constexpr uint32_t kProjectionBias = 17;
constexpr uint32_t kHiddenState = 18;
constexpr uint32_t kCellState = 19;
constexpr uint32_t kInputLayerNormWeights = 20;  // 20..23: layer-norm coefficients per gate
constexpr uint32_t kNumInputs = 24;
constexpr uint32_t kLastWeights = kRecurrentToInputWeights + kGateOutput;  // weights: 1..8
constexpr uint32_t kLastBias = kInputGateBias + kGateOutput;               // biases: 12..15

// sigmoid(i / 24) in unsigned Q0.16, i = 0..255; TFLM's sigmoid_table_uint16 (shared by its
// int16 sigmoid and tanh, tanh(x) = 2 sigmoid(2x) - 1). The entries are not reproducible by
// any simple rounding of the formula, so they are kept as data.
constexpr uint16_t kSigmoidTable[256] = {
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149, 40794, 41432, 42064, 42688,
    43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369, 47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409,
    51865, 52311, 52745, 53169, 53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433,
    57724, 58007, 58280, 58544, 58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110,
    61279, 61441, 61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186,
    63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835, 63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308,
    64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786, 64816, 64845, 64873, 64900,
    64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079, 65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208,
    65221, 65234, 65246, 65258, 65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360, 65367,
    65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433, 65438, 65442, 65445, 65449,
    65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474, 65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491,
    65493, 65495, 65497, 65498, 65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513,
    65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524,
    65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529, 65529, 65529, 65530, 65530,
    65530, 65530, 65531, 65531, 65531, 65531, 65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
    65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65535};

struct FcParams {
  int32_t input_offset;    // -input zero point
  int32_t weights_offset;  // -weights zero point
  int32_t multiplier;
  int32_t shift;
};

struct MulParams {
  int32_t multiplier;
  int32_t shift;
  int32_t output_offset;
  int32_t act_min, act_max;
};

struct LstmData {
  int32_t batch, time_steps, n_input, n_state;
  bool time_major;
  TensorType act_type;     // FLOAT32, INT8 or INT16
  bool cell_gate_sigmoid;  // cell gate activation: sigmoid instead of tanh
  FcParams input_fc[4];    // by Gate
  FcParams recurrent_fc[4];
  MulParams forget_cell_mul, input_mul, output_mul;
  int32_t cell_scale_power;  // cell state scale = 2^cell_scale_power
  int16_t quantized_cell_clip;
  float cell_clip;
  int32_t scratch[4];
};

// --- integer building blocks (TFLM reference_integer_ops) ---------------------------------------

// int16 sigmoid, in place, Q3.12 in -> Q0.15 out (input multiplier 3, no shift).
void SigmoidQ12(int16_t* data, int32_t n) {
  for (int32_t i = 0; i < n; ++i) {
    const int32_t x = data[i] * 3;
    const uint32_t ax = static_cast<uint32_t>(x < 0 ? -x : x);
    const uint32_t uh = ax >> 9;
    uint32_t r;
    if (uh >= 255) {
      r = 0x7FFFu << 10;
    } else {
      const uint32_t ua = kSigmoidTable[uh];
      const uint32_t ub = kSigmoidTable[uh + 1];
      r = (ua << 9) + (ax & 0x1FFu) * (ub - ua);
    }
    r = x >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1;
    data[i] = static_cast<int16_t>(r >> 10);
  }
}

// int16 tanh with the input rescale TFLM derives from the input's power-of-two scale.
void TanhInt16(int32_t scale_power, const int16_t* in, int16_t* out, int32_t n) {
  int32_t left_shift = (15 + scale_power) - 3;
  int32_t multiplier = 0;
  if (left_shift < 0) {
    left_shift = -left_shift;
    multiplier = 3;
  }
  if (multiplier == 0) {  // power-of-two case
    multiplier = 3 << left_shift;
    left_shift = 0;
  }
  const int32_t round = left_shift > 0 ? 1 << (left_shift - 1) : 0;
  for (int32_t i = 0; i < n; ++i) {
    const int32_t x = (in[i] * multiplier + round) >> left_shift;
    const uint32_t ax = static_cast<uint32_t>(x < 0 ? -x : x);
    const uint32_t uh = ax >> 8;
    int32_t r;
    if (uh >= 255) {
      r = static_cast<int32_t>(0xFFFFu << 8);
    } else {
      const uint32_t ua = kSigmoidTable[uh];
      const uint32_t ub = kSigmoidTable[uh + 1];
      r = static_cast<int32_t>((ua << 8) + (ax & 0xFFu) * (ub - ua));
    }
    r = x >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1;
    out[i] = static_cast<int16_t>(r >> 8);
  }
}

// y[b][o] = clamp16(MBQM(sum_d (w[o][d] + w_off) * (x[b][d] + x_off) + bias[o])). int16
// activations accumulate in 64 bits without input offset (TFLM's 16x8 reference FC).
template <typename Act, typename Bias>
void FullyConnectedInt(const FcParams& p, const Act* x, int32_t rows, int32_t depth, const int8_t* w, const Bias* bias,
                       int32_t n_out, int16_t* y) {
  for (int32_t b = 0; b < rows; ++b) {
    for (int32_t o = 0; o < n_out; ++o) {
      const int8_t* wr = w + static_cast<int64_t>(o) * depth;
      const Act* xr = x + static_cast<int64_t>(b) * depth;
      int32_t scaled;
      if constexpr (sizeof(Act) == 1) {
        int32_t acc = 0;
        for (int32_t d = 0; d < depth; ++d) { acc += (wr[d] + p.weights_offset) * (xr[d] + p.input_offset); }
        if (bias != nullptr) acc += bias[o];
        scaled = MultiplyByQuantizedMultiplier(acc, p.multiplier, p.shift);
      } else {
        int64_t acc = 0;
        for (int32_t d = 0; d < depth; ++d) acc += (wr[d] + p.weights_offset) * xr[d];
        if (bias != nullptr) acc += bias[o];
        scaled = MultiplyByQuantizedMultiplier(acc, p.multiplier, p.shift);
      }
      scaled = scaled < -32768 ? -32768 : (scaled > 32767 ? 32767 : scaled);
      y[static_cast<int64_t>(b) * n_out + o] = static_cast<int16_t>(scaled);
    }
  }
}

void AddSaturating(const int16_t* a, const int16_t* b, int32_t n, int16_t* out) {
  for (int32_t i = 0; i < n; ++i) {
    int32_t s = a[i] + b[i];
    s = s < -32768 ? -32768 : (s > 32767 ? 32767 : s);
    out[i] = static_cast<int16_t>(s);
  }
}

template <typename Out>
void MulInt(const MulParams& p, const int16_t* a, const int16_t* b, int32_t n, Out* out) {
  for (int32_t i = 0; i < n; ++i) {
    int32_t r = p.output_offset + MultiplyByQuantizedMultiplier(a[i] * b[i], p.multiplier, p.shift);
    r = r < p.act_min ? p.act_min : (r > p.act_max ? p.act_max : r);
    out[i] = static_cast<Out>(r);
  }
}

// --- float building blocks (TFLM reference_ops) -------------------------------------------------

float ClampFloat(float v) { return v < -FLT_MAX ? -FLT_MAX : (v > FLT_MAX ? FLT_MAX : v); }

void FullyConnectedFloat(const float* x, int32_t rows, int32_t depth, const float* w, const float* bias, int32_t n_out,
                         float* y) {
  for (int32_t b = 0; b < rows; ++b) {
    for (int32_t o = 0; o < n_out; ++o) {
      const float* wr = w + static_cast<int64_t>(o) * depth;
      const float* xr = x + static_cast<int64_t>(b) * depth;
      float total = 0.0f;
      for (int32_t d = 0; d < depth; ++d) total += xr[d] * wr[d];
      const float bias_value = bias != nullptr ? bias[o] : 0.0f;
      y[static_cast<int64_t>(b) * n_out + o] = ClampFloat(total + bias_value);
    }
  }
}

void SigmoidFloat(float* data, int32_t n) {
  const float cutoff_upper = 16.619047164916992188f;
  const float cutoff_lower = -9.0f;
  for (int32_t i = 0; i < n; ++i) {
    const float v = data[i];
    if (v > cutoff_upper) {
      data[i] = 1.0f;
    } else if (v < cutoff_lower) {
      data[i] = std::exp(v);
    } else {
      data[i] = 1.0f / (1.0f + std::exp(-v));
    }
  }
}

void TanhFloat(const float* in, float* out, int32_t n) {
  for (int32_t i = 0; i < n; ++i) out[i] = std::tanh(in[i]);
}

// --- one step -----------------------------------------------------------------------------------

struct StepPos {
  int32_t rows;  // batch rows processed together (batch when time-major, else 1)
  int64_t input_offset, output_offset, state_offset;
};

// Data pointers only (a view per input would cost ~1.7 KB of stack); nullptr = omitted.
struct Tensors {
  void* in[kNumInputs];
  void* out;
};

template <typename T>
T* At(void* p, int64_t offset) {
  return static_cast<T*>(p) + offset;
}

template <typename Act, typename Bias>
void GateInt(const LstmData& d, const Tensors& t, const StepPos& s, Gate g, bool sigmoid, int16_t* gate,
             int16_t* scratch) {
  const Act* x = At<Act>(t.in[kInput], s.input_offset);
  const Act* h = At<Act>(t.in[kHiddenState], s.state_offset);
  const Bias* bias = static_cast<const Bias*>(t.in[kInputGateBias + g]);
  FullyConnectedInt<Act, Bias>(d.input_fc[g], x, s.rows, d.n_input, At<int8_t>(t.in[kInputToInputWeights + g], 0), bias,
                               d.n_state, gate);
  FullyConnectedInt<Act, Bias>(d.recurrent_fc[g], h, s.rows, d.n_state,
                               At<int8_t>(t.in[kRecurrentToInputWeights + g], 0), static_cast<const Bias*>(nullptr),
                               d.n_state, scratch);
  const int32_t n = s.rows * d.n_state;
  AddSaturating(gate, scratch, n, gate);
  if (sigmoid) {
    SigmoidQ12(gate, n);
  } else {
    TanhInt16(-12, gate, gate, n);
  }
}

template <typename Act, typename Bias>
void StepInt(const LstmData& d, const Tensors& t, const StepPos& s, int16_t* const buf[4]) {
  const int32_t n = s.rows * d.n_state;
  int16_t* forget = buf[0];
  GateInt<Act, Bias>(d, t, s, kGateForget, true, forget, buf[3]);
  int16_t* input = buf[1];
  GateInt<Act, Bias>(d, t, s, kGateInput, true, input, buf[3]);
  int16_t* cell_gate = buf[2];
  GateInt<Act, Bias>(d, t, s, kGateCell, d.cell_gate_sigmoid, cell_gate, buf[3]);

  int16_t* cell = At<int16_t>(t.in[kCellState], s.state_offset);
  MulInt<int16_t>(d.forget_cell_mul, forget, cell, n, cell);
  MulInt<int16_t>(d.input_mul, input, cell_gate, n, buf[1]);
  AddSaturating(cell, buf[1], n, cell);
  if (d.cell_clip > 0.0f) {
    const int16_t c = d.quantized_cell_clip;
    for (int32_t i = 0; i < n; ++i) {
      int16_t v = cell[i] < c ? cell[i] : c;
      cell[i] = v > static_cast<int16_t>(-c) ? v : static_cast<int16_t>(-c);
    }
  }

  int16_t* output_gate = buf[1];
  GateInt<Act, Bias>(d, t, s, kGateOutput, true, output_gate, buf[3]);
  TanhInt16(d.cell_scale_power, cell, buf[0], n);
  Act* hidden = At<Act>(t.in[kHiddenState], s.state_offset);
  MulInt<Act>(d.output_mul, buf[0], output_gate, n, hidden);
  std::memcpy(At<Act>(t.out, s.output_offset), hidden, static_cast<size_t>(n) * sizeof(Act));
}

void GateFloat(const LstmData& d, const Tensors& t, const StepPos& s, Gate g, bool sigmoid, float* gate,
               float* scratch) {
  const float* x = At<float>(t.in[kInput], s.input_offset);
  const float* h = At<float>(t.in[kHiddenState], s.state_offset);
  const float* bias = static_cast<const float*>(t.in[kInputGateBias + g]);
  FullyConnectedFloat(x, s.rows, d.n_input, At<float>(t.in[kInputToInputWeights + g], 0), bias, d.n_state, gate);
  FullyConnectedFloat(h, s.rows, d.n_state, At<float>(t.in[kRecurrentToInputWeights + g], 0), nullptr, d.n_state,
                      scratch);
  const int32_t n = s.rows * d.n_state;
  for (int32_t i = 0; i < n; ++i) gate[i] = gate[i] + scratch[i];
  if (sigmoid) {
    SigmoidFloat(gate, n);
  } else {
    TanhFloat(gate, gate, n);
  }
}

void StepFloat(const LstmData& d, const Tensors& t, const StepPos& s, float* const buf[4]) {
  const int32_t n = s.rows * d.n_state;
  float* forget = buf[0];
  GateFloat(d, t, s, kGateForget, true, forget, buf[3]);
  float* input = buf[1];
  GateFloat(d, t, s, kGateInput, true, input, buf[3]);
  float* cell_gate = buf[2];
  GateFloat(d, t, s, kGateCell, d.cell_gate_sigmoid, cell_gate, buf[3]);

  float* cell = At<float>(t.in[kCellState], s.state_offset);
  for (int32_t i = 0; i < n; ++i) cell[i] = ClampFloat(forget[i] * cell[i]);
  for (int32_t i = 0; i < n; ++i) buf[1][i] = ClampFloat(input[i] * cell_gate[i]);
  for (int32_t i = 0; i < n; ++i) cell[i] = cell[i] + buf[1][i];
  if (d.cell_clip > 0.0f) {
    for (int32_t i = 0; i < n; ++i) {
      const float v = d.cell_clip < cell[i] ? d.cell_clip : cell[i];
      cell[i] = v > -d.cell_clip ? v : -d.cell_clip;
    }
  }
  float* output_gate = buf[1];
  GateFloat(d, t, s, kGateOutput, true, output_gate, buf[3]);
  TanhFloat(cell, buf[0], n);
  float* hidden = At<float>(t.in[kHiddenState], s.state_offset);
  for (int32_t i = 0; i < n; ++i) hidden[i] = ClampFloat(buf[0][i] * output_gate[i]);
  std::memcpy(At<float>(t.out, s.output_offset), hidden, static_cast<size_t>(n) * sizeof(float));
}

// Walks time steps (and batches when batch-major) exactly like TFLM's LstmStepManager.
template <typename F>
void ForEachStep(const LstmData& d, F&& step) {
  StepPos s{};
  if (d.time_major) {
    s.rows = d.batch;
    for (int32_t t = 0; t < d.time_steps; ++t) {
      step(s);
      s.input_offset += static_cast<int64_t>(d.n_input) * d.batch;
      s.output_offset += static_cast<int64_t>(d.n_state) * d.batch;
    }
    return;
  }
  s.rows = 1;
  for (int32_t b = 0; b < d.batch; ++b) {
    for (int32_t t = 0; t < d.time_steps; ++t) {
      step(s);
      s.input_offset += d.n_input;
      s.output_offset += d.n_state;
    }
    s.state_offset += d.n_state;
  }
}

// --- prepare ------------------------------------------------------------------------------------

// TFLM's CheckedLog2: the scale must be a power of two (within 1e-3 in log2).
bool CheckedLog2(float x, int32_t* log2_result) {
  const float x_log2 = std::log(x) * (1.0f / std::log(2.0f));
  const float rounded = std::round(x_log2);
  // A zero, negative or NaN scale has no finite log2 (TFLM's cast of it is undefined): not a power.
  if (!(std::fabs(rounded) < 1024.0f)) {
    *log2_result = 0;
    return false;
  }
  *log2_result = static_cast<int32_t>(rounded);
  return std::fabs(x_log2 - rounded) < 1e-3f;
}

// CalculateOpDataFullyConnected for an FC whose output is the Q3.12 gate pre-activation.
void MakeFcParams(const TensorView& input, const TensorView& weights, float out_scale, FcParams* p) {
  const double product = static_cast<double>(input.scale * weights.scale);
  int shift = 0;
  QuantizeMultiplier(product / static_cast<double>(out_scale), &p->multiplier, &shift);
  p->shift = shift;
  p->input_offset = -input.zero_point;
  p->weights_offset = -weights.zero_point;
}

void MakeMulParams(float s1, float s2, float out_scale, TensorType out_type, int32_t out_zp, MulParams* p) {
  const double effective = static_cast<double>(s1) * static_cast<double>(s2) / static_cast<double>(out_scale);
  int shift = 0;
  QuantizeMultiplier(effective, &p->multiplier, &shift);
  p->shift = shift;
  p->output_offset = out_zp;
  if (out_type == TensorType::INT8) {
    p->act_min = -128;
    p->act_max = 127;
  } else {
    p->act_min = -32768;
    p->act_max = 32767;
  }
}

StatusCode CheckDims2(KernelContext& ctx, const TensorView& t, int32_t d0, int32_t d1, uint32_t index) {
  if (t.rank != 2 || t.dims[0] != d0 || t.dims[1] != d1) {
    return ctx.Fail(StatusCode::kInvalidModel, "input %u must have shape [%d, %d]", index, d0, d1);
  }
  return StatusCode::kOk;
}

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, kNumInputs, 1));
  // Views are fetched one at a time (a view costs ~40-70 bytes of stack; 24 would be ~1.7 KB).
  TensorView v;
  // The basic LSTM: input, 8 weight matrices, 4 gate biases, the two states.
  const uint32_t required[] = {kInput,
                               kInputToInputWeights + kGateInput,
                               kInputToInputWeights + kGateForget,
                               kInputToInputWeights + kGateCell,
                               kInputToInputWeights + kGateOutput,
                               kRecurrentToInputWeights + kGateInput,
                               kRecurrentToInputWeights + kGateForget,
                               kRecurrentToInputWeights + kGateCell,
                               kRecurrentToInputWeights + kGateOutput,
                               kInputGateBias + kGateInput,
                               kInputGateBias + kGateForget,
                               kInputGateBias + kGateCell,
                               kInputGateBias + kGateOutput,
                               kHiddenState,
                               kCellState};
  for (uint32_t i : required) {
    if (!ctx.GetInput(i, &v)) return ctx.Fail(StatusCode::kInvalidModel, "required input %u is missing", i);
  }
  const uint32_t variants[] = {
      kCellToInputWeights,       kCellToInputWeights + 1, kCellToInputWeights + 2,    kProjectionWeights,
      kProjectionBias,           kInputLayerNormWeights,  kInputLayerNormWeights + 1, kInputLayerNormWeights + 2,
      kInputLayerNormWeights + 3};
  for (uint32_t i : variants) {
    if (ctx.GetInput(i, &v)) {
      return ctx.Fail(StatusCode::kUnsupported,
                      "input %u present: peephole / projection / layer-norm LSTM not supported", i);
    }
  }
  TensorView in, hidden, cell, out;
  ctx.GetInput(kInput, &in);
  ctx.GetInput(kHiddenState, &hidden);
  ctx.GetInput(kCellState, &cell);
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  if (hidden.type != in.type || out.type != in.type) {
    return ctx.Fail(StatusCode::kInvalidModel, "input, hidden state and output types differ (%s, %s, %s)",
                    TypeName(in.type), TypeName(hidden.type), TypeName(out.type));
  }
  ctx.GetInput(kInputToForgetWeights, &v);
  const TensorType wtype = v.type;
  ctx.GetInput(kForgetGateBias, &v);
  const TensorType btype = v.type;
  for (uint32_t i = kInputToInputWeights; i <= kLastWeights; ++i) {
    ctx.GetInput(i, &v);
    if (v.type != wtype) return ctx.Fail(StatusCode::kInvalidModel, "weight %u type differs", i);
  }
  for (uint32_t i = kInputGateBias; i <= kLastBias; ++i) {
    ctx.GetInput(i, &v);
    if (v.type != btype) return ctx.Fail(StatusCode::kInvalidModel, "bias %u type differs", i);
  }
  TensorType want_w, want_b, want_cell;
  if (in.type == TensorType::FLOAT32) {
    want_w = TensorType::FLOAT32;
    want_b = TensorType::FLOAT32;
    want_cell = TensorType::FLOAT32;
  } else if (in.type == TensorType::INT8) {
    want_w = TensorType::INT8;
    want_b = TensorType::INT32;
    want_cell = TensorType::INT16;
  } else if (in.type == TensorType::INT16) {
    want_w = TensorType::INT8;
    want_b = TensorType::INT64;
    want_cell = TensorType::INT16;
  } else {
    return ctx.Fail(StatusCode::kUnsupported, "input type %s not supported", TypeName(in.type));
  }
  if (wtype != want_w || btype != want_b || cell.type != want_cell) {
    return ctx.Fail(StatusCode::kUnsupported, "weights %s / bias %s / cell state %s not supported for %s activations",
                    TypeName(wtype), TypeName(btype), TypeName(cell.type), TypeName(in.type));
  }
  const auto* opts = Options<tfl::UnidirectionalSequenceLSTMOptions>(ctx);
  if (opts == nullptr) return ctx.Fail(StatusCode::kInvalidModel, "missing UnidirectionalSequenceLSTMOptions");
  const auto act = opts->fused_activation_function();
  // The schema has no SIGMOID; TFLM asserts on anything but sigmoid/tanh for the cell gate.
  if (act != tfl::ActivationFunctionType::TANH) {
    return ctx.Fail(StatusCode::kUnsupported, "cell gate activation %d not supported", static_cast<int>(act));
  }
  if (in.rank != 3 || hidden.rank != 2) {
    return ctx.Fail(StatusCode::kInvalidModel, "input must be rank 3 (is %d), hidden state rank 2 (is %d)", in.rank,
                    hidden.rank);
  }

  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(LstmData), &mem));
  auto* d = static_cast<LstmData*>(mem);
  *d = LstmData{};
  d->time_major = opts->time_major();
  d->batch = d->time_major ? in.dims[1] : in.dims[0];
  d->time_steps = d->time_major ? in.dims[0] : in.dims[1];
  d->n_input = in.dims[2];
  d->n_state = hidden.dims[1];
  d->act_type = in.type;
  d->cell_gate_sigmoid = false;
  d->cell_clip = opts->cell_clip();
  if (d->batch <= 0 || d->time_steps < 0 || d->n_input <= 0 || d->n_state <= 0) {
    return ctx.Fail(StatusCode::kInvalidModel, "bad LSTM sizes (batch %d, time %d, input %d, state %d)", d->batch,
                    d->time_steps, d->n_input, d->n_state);
  }
  for (uint32_t i = kInputToInputWeights; i <= kLastWeights; ++i) {
    ctx.GetInput(i, &v);
    RT_RETURN_IF_ERROR(CheckDims2(ctx, v, d->n_state, i < kRecurrentToInputWeights ? d->n_input : d->n_state, i));
  }
  for (uint32_t i = kInputGateBias; i <= kLastBias; ++i) {
    ctx.GetInput(i, &v);
    if (v.rank != 1 || v.dims[0] != d->n_state) {
      return ctx.Fail(StatusCode::kInvalidModel, "bias %u must have shape [%d]", i, d->n_state);
    }
  }
  const int64_t states = static_cast<int64_t>(d->batch) * d->n_state;
  if (ElementCount(hidden) != states || ElementCount(cell) != states) {
    return ctx.Fail(StatusCode::kInvalidModel, "hidden / cell state must hold batch x state = %d elements",
                    static_cast<int32_t>(states));
  }
  if (out.rank != 3 || out.dims[0] != in.dims[0] || out.dims[1] != in.dims[1] || out.dims[2] != d->n_state) {
    return ctx.Fail(StatusCode::kInvalidModel, "output must have shape [%d, %d, %d]", in.dims[0], in.dims[1],
                    d->n_state);
  }

  if (in.type != TensorType::FLOAT32) {
    if (cell.scale <= 0.0f || !CheckedLog2(cell.scale, &d->cell_scale_power)) {
      return ctx.Fail(StatusCode::kUnsupported, "cell state scale must be a power of two");
    }
    // The int16 tanh rescales by 3 << (12 + power): keep that product inside int32.
    if (d->cell_scale_power < -27 || d->cell_scale_power > 0) {
      return ctx.Fail(StatusCode::kUnsupported, "cell state scale 2^%d out of the supported range [2^-27, 1]",
                      d->cell_scale_power);
    }
    double clip = static_cast<double>(d->cell_clip) / static_cast<double>(cell.scale);
    clip = clip < -32768.0 ? -32768.0 : (clip > 32767.0 ? 32767.0 : clip);
    d->quantized_cell_clip = static_cast<int16_t>(clip);
    const float gate_in_scale = 0.00024414062f;   // TFLM's literal for 2^-12 (Q3.12)
    const float gate_out_scale = 0.00003051757f;  // TFLM's literal for ~2^-15 (Q0.15)
    for (uint32_t g = 0; g < 4; ++g) {
      ctx.GetInput(kInputToInputWeights + g, &v);
      MakeFcParams(in, v, gate_in_scale, &d->input_fc[g]);
      ctx.GetInput(kRecurrentToInputWeights + g, &v);
      MakeFcParams(hidden, v, gate_in_scale, &d->recurrent_fc[g]);
    }
    MakeMulParams(gate_out_scale, cell.scale, cell.scale, TensorType::INT16, 0, &d->forget_cell_mul);
    MakeMulParams(gate_out_scale, gate_out_scale, cell.scale, TensorType::INT16, 0, &d->input_mul);
    MakeMulParams(gate_out_scale, gate_out_scale, hidden.scale, hidden.type, hidden.zero_point, &d->output_mul);
  }
  const uint32_t cell_bytes = in.type == TensorType::FLOAT32 ? 4u : 2u;
  if (states * cell_bytes > 0x7fffffff) return ctx.Fail(StatusCode::kInvalidModel, "state too large");
  for (int32_t i = 0; i < 4; ++i) {
    RT_RETURN_IF_ERROR(ctx.RequestScratch(static_cast<uint32_t>(states) * cell_bytes, &d->scratch[i]));
  }
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

StatusCode Eval(KernelContext& ctx) {
  const auto* d = static_cast<const LstmData*>(ctx.op_data());
  Tensors t;
  TensorView v;
  for (uint32_t i = 0; i < kNumInputs; ++i) t.in[i] = ctx.GetInput(i, &v) ? v.data : nullptr;
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &v));
  t.out = v.data;
  for (uint32_t i = 0; i <= kLastWeights; ++i) {  // input and weights, then the states
    if (t.in[i] == nullptr) return ctx.Fail(StatusCode::kKernelError, "input %u has no data", i);
  }
  for (uint32_t i : {kHiddenState, kCellState}) {
    if (t.in[i] == nullptr) return ctx.Fail(StatusCode::kKernelError, "input %u has no data", i);
  }
  if (t.out == nullptr) return ctx.Fail(StatusCode::kKernelError, "output has no data");
  void* raw[4];
  for (int32_t i = 0; i < 4; ++i) {
    raw[i] = ctx.GetScratch(d->scratch[i]);
    if (raw[i] == nullptr) return ctx.Fail(StatusCode::kKernelError, "scratch buffer %d missing", i);
  }
  if (d->act_type == TensorType::FLOAT32) {
    float* const buf[4] = {static_cast<float*>(raw[0]), static_cast<float*>(raw[1]), static_cast<float*>(raw[2]),
                           static_cast<float*>(raw[3])};
    ForEachStep(*d, [&](const StepPos& s) { StepFloat(*d, t, s, buf); });
    return StatusCode::kOk;
  }
  int16_t* const buf[4] = {static_cast<int16_t*>(raw[0]), static_cast<int16_t*>(raw[1]), static_cast<int16_t*>(raw[2]),
                           static_cast<int16_t*>(raw[3])};
  if (d->act_type == TensorType::INT8) {
    ForEachStep(*d, [&](const StepPos& s) { StepInt<int8_t, int32_t>(*d, t, s, buf); });
  } else {
    ForEachStep(*d, [&](const StepPos& s) { StepInt<int16_t, int64_t>(*d, t, s, buf); });
  }
  return StatusCode::kOk;
}

const KernelRegistration kLstm{"UNIDIRECTIONAL_SEQUENCE_LSTM", &Prepare, &Eval};

}  // namespace

const KernelRegistration* Register_UNIDIRECTIONAL_SEQUENCE_LSTM() { return &kLstm; }

}  // namespace arenaplan::rt
