#include "cli/cli_testutil.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

#include "model/writer.h"

namespace arenaplan::testing {

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void DemoModelTest::SetUp() {
  dir_ = TempDir();
  demo_ = dir_ + "/demo.tflite";
  WriteBytes(demo_, model::DemoModel());
}

std::vector<uint8_t> AddModelWithOutputNamed(const std::string& output_name) {
  model::ModelSpec spec;
  const uint32_t add = model::AddOperatorCode(spec, 0);  // ADD
  model::SubgraphSpec sg;
  sg.tensors = {model::TensorSpec{"in", model::TensorType::kFloat32, {1, 4}},
                model::TensorSpec{output_name, model::TensorType::kFloat32, {1, 4}}};
  sg.inputs = {0};
  sg.outputs = {1};
  sg.operators = {model::OperatorSpec{add, {0, 0}, {1}}};
  spec.subgraphs.push_back(sg);
  return model::WriteModel(spec);
}

std::string TempDir() {
  char tmpl[] = "/tmp/arenaplan-cli-XXXXXX";
  const char* d = mkdtemp(tmpl);
  return d ? d : "/tmp";
}

void WriteBytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

CliRun RunCli(const std::vector<std::string>& args) {
  const std::string dir = TempDir();
  const std::string out_path = dir + "/stdout", err_path = dir + "/stderr";
  const pid_t pid = fork();
  if (pid == 0) {
    const int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(out, 1);
    dup2(err, 2);
    std::vector<char*> argv;
    static std::string exe = ARENAPLAN_CLI;
    argv.push_back(exe.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(exe.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  CliRun run;
  // A crash (signal) is reported as 128 + signal so tests see it is neither 0, 1 nor 2.
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.out = ReadText(out_path);
  run.err = ReadText(err_path);
  return run;
}

}  // namespace arenaplan::testing
