#include "cli/progress.h"

#include <unistd.h>

namespace arenaplan::cli {

namespace {
constexpr double kFirstShownAfter = 0.5;  // seconds: short runs print nothing
}  // namespace

TerminalProgress::TerminalProgress(std::string command, std::FILE* stream)
    : command_(std::move(command)), stream_(stream), enabled_(isatty(fileno(stream)) == 1) {}

TerminalProgress::~TerminalProgress() {
  if (shown_) std::fprintf(stream_, "\r\033[K");  // carriage return, erase to the end of the line
}

plan::ProgressFn TerminalProgress::Callback() {
  if (!enabled_) return {};
  return [this](const plan::PlanProgress& p) { Show(p); };
}

std::string TerminalProgress::Line(const std::string& command, const plan::PlanProgress& p) {
  char buf[256];
  std::string line = command + ":";
  if (p.height > 0) {
    std::snprintf(buf, sizeof buf, " best %lld", static_cast<long long>(p.height));
    line += buf;
  } else {
    line += " no plan yet";
  }
  std::snprintf(buf, sizeof buf, "  bound %lld", static_cast<long long>(p.lower_bound));
  line += buf;
  if (p.height > 0 && p.lower_bound > 0) {
    std::snprintf(buf, sizeof buf, "  gap %+.2f %%",
                  100.0 * static_cast<double>(p.height - p.lower_bound) / static_cast<double>(p.lower_bound));
    line += buf;
  }
  if (p.nodes > 0) line += "  " + std::to_string(p.nodes) + " nodes";
  std::snprintf(buf, sizeof buf, "  %s  %.1f s", p.stage.c_str(), p.seconds);
  return line + buf;
}

void TerminalProgress::Show(const plan::PlanProgress& p) {
  if (p.seconds < kFirstShownAfter || p.seconds - last_shown_ < plan::kProgressInterval) return;
  last_shown_ = p.seconds;
  shown_ = true;
  std::fprintf(stream_, "\r\033[K%s", Line(command_, p).c_str());
  std::fflush(stream_);
}

}  // namespace arenaplan::cli
