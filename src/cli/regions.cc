#include "cli/regions.h"

#include <cctype>

#include "lifetime/traffic.h"
#include "report/printable.h"

namespace arenaplan::cli {
namespace {

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> parts(1);
  for (char c : s) {
    if (c == sep) {
      parts.emplace_back();
    } else {
      parts.back() += c;
    }
  }
  return parts;
}

// Decimal digits only, below `limit`; false on anything else (sign, empty, overflow).
bool ParseCount(const std::string& s, int64_t limit, int64_t* out) {
  if (s.empty() || s.size() > 18) return false;
  int64_t v = 0;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    v = v * 10 + (c - '0');
  }
  if (v > limit) return false;
  *out = v;
  return true;
}

Result<plan::Bytes> ParseSize(const std::string& spec, const std::string& text) {
  std::string digits = text;
  int shift = 0;
  if (!digits.empty() && std::isalpha(static_cast<unsigned char>(digits.back()))) {
    const char suffix = static_cast<char>(std::toupper(static_cast<unsigned char>(digits.back())));
    shift = suffix == 'K' ? 10 : suffix == 'M' ? 20 : suffix == 'G' ? 30 : -1;
    if (shift < 0) {
      return InvalidArgument("--region '" + spec + "': bad size suffix '" + std::string(1, digits.back()) +
                             "' (K, M or G)");
    }
    digits.pop_back();
  }
  int64_t v = 0;
  if (!ParseCount(digits, plan::kMaxTotalBytes >> shift, &v)) {
    return InvalidArgument("--region '" + spec + "': bad size '" + text +
                           "' (a positive number of bytes with an optional K, M or G suffix)");
  }
  if (v == 0) return InvalidArgument("--region '" + spec + "': size must be positive");
  return v << shift;
}

bool ValidName(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.') return false;
  }
  return true;
}

}  // namespace

Result<plan::Region> ParseRegion(const std::string& spec) {
  const auto parts = Split(spec, ':');
  if (parts.size() < 2 || parts.size() > 3) {
    return InvalidArgument("--region '" + spec + "': expected NAME:BYTES[:COST]");
  }
  plan::Region r;
  r.name = parts[0];
  if (!ValidName(r.name)) {
    return InvalidArgument("--region '" + spec + "': name must be 1-64 letters, digits, '_', '-' or '.'");
  }
  auto size = ParseSize(spec, parts[1]);
  if (!size.ok()) return size.status();
  r.capacity = *size;
  if (parts.size() == 3) {
    if (!ParseCount(parts[2], plan::kMaxRegionCost, &r.cost) || r.cost == 0) {
      return InvalidArgument("--region '" + spec + "': cost must be an integer from 1 to " +
                             std::to_string(plan::kMaxRegionCost));
    }
  }
  return r;
}

Result<std::unique_ptr<RegionPlannedData>> PlanModelRegions(const PlanningArgs& args,
                                                            const std::vector<std::string>& specs) {
  auto out = std::make_unique<RegionPlannedData>();
  for (const std::string& spec : specs) {
    auto region = ParseRegion(spec);
    if (!region.ok()) return region.status();
    out->problem.regions.push_back(std::move(region).value());
  }
  ModelLifetimes ml;
  ARENAPLAN_RETURN_IF_ERROR(LoadLifetimes(args, false, &ml));  // offline offsets are for one arena
  out->loaded = std::move(ml.loaded);
  out->lifetimes = std::move(ml.lifetimes);
  out->alignment = ml.alignment;
  out->offline_plan_ignored = out->loaded->model.offline_plan.has_value();
  out->problem.problem = lifetime::ToProblem(out->lifetimes, out->alignment);
  out->problem.traffic = lifetime::BufferTraffic(out->loaded->model, out->lifetimes);
  plan::PlannerOptions options;
  options.time_limit_seconds = args.time_limit;
  auto result = plan::PlanRegions(out->problem, options);
  if (!result.ok()) return result.status();
  out->result = std::move(result).value();
  return out;
}

std::string RegionShortfallMessage(const RegionPlannedData& d) {
  const plan::RegionResult& r = d.result;
  std::string msg = d.loaded->path + ": does not fit the regions: needs ";
  if (r.shortfall_min == r.shortfall_max) {
    msg += std::to_string(r.shortfall_min) + " more bytes";
  } else {
    msg += std::to_string(r.shortfall_min) + " to " + std::to_string(r.shortfall_max) + " more bytes";
  }
  size_t largest = 0;
  plan::RegionShortfallLowerBound(d.problem, &largest);
  plan::Bytes largest_region = 0;
  std::string region_name;
  for (const plan::Region& g : d.problem.regions) {
    if (g.capacity > largest_region) {
      largest_region = g.capacity;
      region_name = g.name;
    }
  }
  const auto& bufs = d.problem.problem.buffers;
  if (!bufs.empty() && bufs[largest].size > largest_region) {
    const auto& b = d.lifetimes.buffers[largest];
    msg += " (no region holds buffer " + b.id + " '" + report::Printable(b.name, 60) + "' of " +
           std::to_string(bufs[largest].size) + " bytes; largest region " + region_name + " has " +
           std::to_string(largest_region) + ")";
  } else if (r.status != plan::PlanStatus::kInfeasible) {
    msg += " (no placement found within the time limit; not proven impossible)";
  }
  return msg;
}

}  // namespace arenaplan::cli
