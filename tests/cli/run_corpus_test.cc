// `arenaplan run` end to end on the corpus: outputs written by the CLI equal TFLM's golden bytes,
// and for stateful models `--invokes 2` writes the second Invoke's outputs as .seq1.out<k>.bin,
// equal to TFLM's second Invoke without reset.
#include <gtest/gtest.h>

#include <filesystem>

#include "cli/cli_testutil.h"
#include "support/shared_dir.h"

namespace arenaplan::testing {
namespace {
namespace fs = std::filesystem;

TEST(RunCorpus, SecondInvokeOfEveryStatefulModelMatchesTflm) {
  REQUIRE_SHARED();
  const std::string io = *SharedDir() + "/golden/tflm-x86_64/io";
  int checked = 0;
  for (const auto& e : fs::directory_iterator(io)) {
    const std::string file = e.path().filename().string();
    const std::string suffix = ".seq1.out0.bin";
    if (file.size() <= suffix.size() || file.compare(file.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
    const std::string model = file.substr(0, file.size() - suffix.size());
    SCOPED_TRACE(model);
    const std::string out = TempDir() + "/o";
    const CliRun r = RunCli(
        {"run", *SharedDir() + "/models/" + model + ".tflite", "--invokes", "2", "--outputs-to", out});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (int k = 0; fs::exists(io + "/" + model + ".out" + std::to_string(k) + ".bin"); ++k) {
      const std::string name = ".out" + std::to_string(k) + ".bin";
      EXPECT_EQ(ReadFileBytes(out + name), ReadFileBytes(io + "/" + model + name)) << "first Invoke, output " << k;
      EXPECT_EQ(ReadFileBytes(out + ".seq1" + name), ReadFileBytes(io + "/" + model + ".seq1" + name))
          << "second Invoke, output " << k;
    }
    ++checked;
  }
  EXPECT_GE(checked, 6);
}

}  // namespace
}  // namespace arenaplan::testing
