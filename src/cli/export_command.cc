#include "cli/commands.h"

namespace arenaplan::cli {

// Placeholder until the command is implemented.
void RegisterExport(CLI::App& root, int& exit_code) {
  auto* cmd = root.add_subcommand("export", "(not implemented yet)");
  cmd->allow_extras();
  cmd->callback([&exit_code] {
    std::fprintf(stderr, "arenaplan export: not implemented yet\n");
    exit_code = kExitBadInput;
  });
}

}  // namespace arenaplan::cli
