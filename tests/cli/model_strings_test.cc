// What a model says is never printed raw: names with control bytes (ESC, BEL, CR, NUL, DEL, the
// C1 CSI), invalid UTF-8 and valid non-ASCII text, in every string a .tflite carries (tensor,
// subgraph and metadata names, the custom code, the description), through every command and
// format. Text output must hold no control byte but '\n' and be valid UTF-8; JSON must parse.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/cli_testutil.h"
#include "model/writer.h"

namespace arenaplan::testing {
namespace {

const std::string kHostile = std::string(
                                 "x\x1b[2J\a\r\x7f\xc2\x9b"
                                 "1m\xff\xc3") +
                             std::string("\0z", 2) + "\xc3\xa9";

// in --ADD(in, c const)--> mid --OP--> out, every string hostile; OP is ADD, or a custom op of
// the hostile name (which nothing can run or size: the error messages name it).
model::ModelSpec Spec(bool custom) {
  model::ModelSpec spec;
  spec.description = kHostile;
  const uint32_t add = model::AddOperatorCode(spec, 0);
  const uint32_t last = custom ? model::AddOperatorCode(spec, 32, kHostile) : add;
  const uint32_t c = model::AddBuffer(spec, std::vector<uint8_t>(16, 0));
  model::SubgraphSpec sg;
  sg.name = kHostile;
  sg.tensors = {{kHostile + "in", model::TensorType::kFloat32, {1, 4}},
                {kHostile + "c", model::TensorType::kFloat32, {1, 4}, c},
                {kHostile + "mid", model::TensorType::kFloat32, {1, 4}},
                {kHostile, model::TensorType::kFloat32, {1, 4}}};
  sg.inputs = {0};
  sg.outputs = {3};
  sg.operators = {{add, {0, 1}, {2}}, {last, {2, 2}, {3}}};
  spec.subgraphs.push_back(sg);
  model::SetMetadata(spec, kHostile, {1, 2, 3, 4});
  return spec;
}

// The first byte that must not reach a terminal, or "" when the text is clean.
std::string Unprintable(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<uint8_t>(s[i]);
    if (b == '\n' || (b >= 0x20 && b < 0x7f)) {
      ++i;
      continue;
    }
    size_t len = (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : (b & 0xF8) == 0xF0 ? 4 : 0;
    bool ok = len > 0 && i + len <= s.size();
    for (size_t k = 1; ok && k < len; ++k) ok = (static_cast<uint8_t>(s[i + k]) & 0xC0) == 0x80;
    if (ok && len == 2 && b == 0xC2 && static_cast<uint8_t>(s[i + 1]) < 0xA0) ok = false;  // C1
    if (!ok) return "byte " + std::to_string(b) + " at " + std::to_string(i);
    i += len;
  }
  return "";
}

class ModelStrings : public ::testing::TestWithParam<bool> {};

TEST_P(ModelStrings, AreEscapedInTextAndValidInJson) {
  const std::string dir = TempDir();
  const std::string path = dir + "/hostile.tflite";
  WriteBytes(path, model::WriteModel(Spec(GetParam())));
  const std::vector<std::vector<std::string>> commands = {
      {"inspect", path},
      {"inspect", path, "--format", "json"},
      {"plan", path},
      {"plan", path, "--format", "json"},
      {"plan", path, "--target", "tflm-cortex-m"},
      {"size", path},
      {"size", path, "--format", "json"},
      {"export", path, "-o", dir + "/out.tflite"},
      {"run", path},
      {"run", path, "--format", "json"},
  };
  int escaped = 0;
  for (const auto& args : commands) {
    std::string line;
    for (const auto& a : args) line += a + " ";
    SCOPED_TRACE(line);
    const CliRun r = RunCli(args);
    EXPECT_NE(r.exit_code, 139);  // no crash
    EXPECT_EQ(Unprintable(r.err), "") << r.err;
    const bool json = args.size() > 2 && args[args.size() - 1] == "json";
    if (json && r.exit_code == 0) {
      EXPECT_NO_THROW((void)nlohmann::json::parse(r.out)) << r.out;
    } else {
      EXPECT_EQ(Unprintable(r.out), "") << r.out;
    }
    escaped += (r.out + r.err).find("\\x1b[2J\\x07\\x0d\\x7f\\xc2\\x9b1m\\xff\\xc3") != std::string::npos;
  }
  EXPECT_GT(escaped, 0);  // the names do reach the output, escaped
}

INSTANTIATE_TEST_SUITE_P(AddOrCustomOp, ModelStrings, ::testing::Bool());

TEST(ModelStrings, InspectJsonKeepsValidNamesAndReplacesInvalidBytes) {
  const std::string dir = TempDir();
  const std::string path = dir + "/hostile.tflite";
  WriteBytes(path, model::WriteModel(Spec(false)));
  const CliRun r = RunCli({"inspect", path, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const std::string name = j["subgraphs"][0]["tensors"][3]["name"];
  // ESC etc. travel as JSON escapes (\u001b) and come back; 0xFF and the cut-off 0xC3 become U+FFFD.
  EXPECT_EQ(name, std::string("x\x1b[2J\a\r\x7f\xc2\x9b"
                              "1m\xef\xbf\xbd\xef\xbf\xbd") +
                      std::string("\0z", 2) + "\xc3\xa9");
}

}  // namespace
}  // namespace arenaplan::testing
