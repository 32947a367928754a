// Runs the built `arenaplan` binary and captures its exit code, stdout and stderr; a fixture with
// the project's demo model on disk.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace arenaplan::testing {

struct CliRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Arguments are passed without a shell (no quoting issues).
CliRun RunCli(const std::vector<std::string>& args);
// A fresh temporary directory for one test's files.
std::string TempDir();
void WriteBytes(const std::string& path, const std::vector<uint8_t>& bytes);
void WriteText(const std::string& path, const std::string& text);
// A one-op model: in [1,4] --ADD(in, in)--> `output_name` [1,4] (float32), for names that must survive
// the CLI's outputs (file names, HTML, JSON).
std::vector<uint8_t> AddModelWithOutputNamed(const std::string& output_name);
// The whole file (empty when it cannot be read).
std::string ReadText(const std::string& path);

// Each test gets a fresh directory `dir_` holding the demo model at `demo_`.
class DemoModelTest : public ::testing::Test {
 protected:
  void SetUp() override;
  std::string dir_, demo_;
};

}  // namespace arenaplan::testing
