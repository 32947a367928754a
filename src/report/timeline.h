// The ASCII picture of a plan: time across, address down. Large plans are summarised, never
// wrapped: time steps are bucketed into at most `width` columns and the arena into `rows` bands;
// each cell shows the buffer covering most of it (the 26 largest-area buffers get letters A-Z and a
// legend, the rest '+'), '.' where nothing is alive. A live-bytes profile row marks the peak.
#pragma once

#include <string>
#include <vector>

#include "plan/problem.h"

namespace arenaplan::report {

struct TimelineOptions {
  int width = 72;  // columns for the time axis (the whole line stays within 100)
  int rows = 20;   // address bands
};

std::string RenderTimeline(const plan::Problem& problem, const plan::Plan& plan, const std::vector<std::string>& labels,
                           const TimelineOptions& options = {});

}  // namespace arenaplan::report
