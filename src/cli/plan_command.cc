#include "cli/commands.h"

namespace arenaplan::cli {

// Placeholder until the command is implemented.
void RegisterPlan(CLI::App& root, int& exit_code) {
  auto* cmd = root.add_subcommand("plan", "(not implemented yet)");
  cmd->allow_extras();
  cmd->callback([&exit_code] {
    std::fprintf(stderr, "arenaplan plan: not implemented yet\n");
    exit_code = kExitBadInput;
  });
}

}  // namespace arenaplan::cli
