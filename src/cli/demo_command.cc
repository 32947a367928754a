#include "cli/commands.h"

namespace arenaplan::cli {

// Placeholder until the command is implemented.
void RegisterDemo(CLI::App& root, int& exit_code) {
  auto* cmd = root.add_subcommand("demo", "(not implemented yet)");
  cmd->allow_extras();
  cmd->callback([&exit_code] {
    std::fprintf(stderr, "arenaplan demo: not implemented yet\n");
    exit_code = kExitBadInput;
  });
}

}  // namespace arenaplan::cli
