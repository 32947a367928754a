// CLI11's App, declared only: headers that take a CLI::App& include this, and the files that
// register options include <CLI/CLI.hpp> themselves. Debian's CLI11 (2.1) is header-only and
// every file that includes it compiles its validator objects again (about 5 s at -O2, 12 s under
// the sanitizers, per file), so files that never touch the command line should not see it.
#pragma once

namespace CLI {
class App;
}  // namespace CLI
