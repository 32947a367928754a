#include "cli/commands.h"

namespace arenaplan::cli {

// Placeholder until the command is implemented.
void RegisterInspect(CLI::App& root, int& exit_code) {
  auto* cmd = root.add_subcommand("inspect", "(not implemented yet)");
  cmd->allow_extras();
  cmd->callback([&exit_code] {
    std::fprintf(stderr, "arenaplan inspect: not implemented yet\n");
    exit_code = kExitBadInput;
  });
}

}  // namespace arenaplan::cli
