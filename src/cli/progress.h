// Live progress of a long planning run on stderr, only when stderr is a terminal: one line,
// rewritten in place at most every 100 ms from the planner's reports (best plan so far, proven
// bound, gap, nodes, stage, time), shown once the run has taken half a second, and erased when the
// run ends, so that the final summary and any piped output stay as they were.
#pragma once

#include <cstdio>
#include <string>

#include "plan/planner.h"

namespace arenaplan::cli {

class TerminalProgress {
 public:
  // `command`: prefixes the line ("solve", "plan"). `stream` defaults to stderr.
  explicit TerminalProgress(std::string command, std::FILE* stream = stderr);
  ~TerminalProgress();  // erases the line if one was written
  TerminalProgress(const TerminalProgress&) = delete;
  TerminalProgress& operator=(const TerminalProgress&) = delete;

  // For PlannerOptions::progress: empty when the stream is not a terminal.
  plan::ProgressFn Callback();

  // The line for one report (no carriage return), e.g.
  // "solve: best 1025024  bound 986112  gap +3.95 %  1234567 nodes  optimal  12.3 s".
  static std::string Line(const std::string& command, const plan::PlanProgress& p);

 private:
  void Show(const plan::PlanProgress& p);
  std::string command_;
  std::FILE* stream_;
  bool enabled_;
  bool shown_ = false;
  double last_shown_ = -1;
};

}  // namespace arenaplan::cli
