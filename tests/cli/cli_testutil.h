// Runs the built `arenaplan` binary and captures its exit code, stdout and stderr.
#pragma once

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

}  // namespace arenaplan::testing
