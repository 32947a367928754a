#include "cli/commands.h"

namespace arenaplan::cli {

// Placeholder until the command is implemented.
void RegisterSolve(CLI::App& root, int& exit_code) {
  auto* cmd = root.add_subcommand("solve", "(not implemented yet)");
  cmd->allow_extras();
  cmd->callback([&exit_code] {
    std::fprintf(stderr, "arenaplan solve: not implemented yet\n");
    exit_code = kExitBadInput;
  });
}

}  // namespace arenaplan::cli
