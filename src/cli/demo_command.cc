// `arenaplan demo`: writes the example model the project builds itself, so the first command in
// the README works on a fresh clone with no model at hand.
#include <cstdio>
#include <fstream>

#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "model/writer.h"

namespace arenaplan::cli {

void RegisterDemo(CLI::App& root, int& exit_code) {
  auto path = std::make_shared<std::string>("demo.tflite");
  auto* cmd = root.add_subcommand("demo", "Write a small example .tflite model (a float32 residual CNN)");
  cmd->add_option("-o,--output", *path, "where to write it")->capture_default_str();
  cmd->callback([path, &exit_code] {
    const std::vector<uint8_t> bytes = model::DemoModel();
    std::ofstream out(*path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) {
      std::fprintf(stderr, "arenaplan demo: cannot write '%s'\n", path->c_str());
      exit_code = kExitBadInput;
      return;
    }
    std::printf("wrote %s (%zu bytes)\n", path->c_str(), bytes.size());
    exit_code = kExitOk;
  });
}

}  // namespace arenaplan::cli
