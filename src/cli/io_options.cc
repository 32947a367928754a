#include "cli/io_options.h"

#include <algorithm>
#include <cstdio>

#include <CLI/CLI.hpp>

#include "report/printable.h"

namespace arenaplan::cli {
namespace {

rules::ExternalIo ParseExternalIo(const std::string& s) {
  if (s == "inputs") return rules::ExternalIo::kInputs;
  if (s == "outputs") return rules::ExternalIo::kOutputs;
  if (s == "both") return rules::ExternalIo::kBoth;
  return rules::ExternalIo::kNone;
}

bool IsIndex(const std::string& s) {
  return !s.empty() && s.size() <= 9 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

IoCost::Tensor Describe(const model::Model& model, uint32_t t) {
  const model::Tensor& tensor = model.subgraphs[0].tensors[t];
  return {t, tensor.name, tensor.bytes.value_or(0)};
}

std::string Join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

}  // namespace

void AddIoOptions(CLI::App& cmd, IoArgs* args) {
  cmd.add_option("--external-io", args->external_io,
                 "inputs, outputs or both: subgraph 0's inputs and/or outputs are bound by the application "
                 "(zero copies) and left out of the arena (default none)")
      ->check(CLI::IsMember({"none", "inputs", "outputs", "both"}));
  cmd.add_option("--keep", args->keep,
                 "subgraph-0 tensors (name or index) whose bytes must stay valid after Invoke: their lifetime "
                 "is extended to the end of the run");
}

Result<IoSelection> ResolveIo(const model::Model& model, const IoArgs& args) {
  IoSelection out;
  out.external_io = ParseExternalIo(args.external_io);
  const std::vector<model::Tensor>& tensors = model.subgraphs.at(0).tensors;
  for (const std::string& want : args.keep) {
    const size_t before = out.keep.size();
    for (size_t t = 0; t < tensors.size(); ++t) {
      if (tensors[t].name == want) out.keep.push_back(static_cast<uint32_t>(t));
    }
    if (out.keep.size() > before) continue;
    if (IsIndex(want) && std::stoul(want) < tensors.size()) {
      out.keep.push_back(static_cast<uint32_t>(std::stoul(want)));
      continue;
    }
    return InvalidArgument("--keep: no tensor '" + report::Printable(want) + "' in subgraph 0 (" +
                           std::to_string(tensors.size()) + " tensors)");
  }
  std::sort(out.keep.begin(), out.keep.end());
  out.keep.erase(std::unique(out.keep.begin(), out.keep.end()), out.keep.end());
  return out;
}

Result<std::vector<IoCost>> MeasureIoCosts(const model::Model& model, const IoArgs& args, const IoSelection& selection,
                                           const std::vector<uint32_t>& externals,
                                           const std::function<Result<uint64_t>(const IoSelection&)>& head_of) {
  std::vector<IoCost> costs;
  IoSelection step;
  auto head = head_of(step);
  if (!head.ok()) return head.status();
  if (selection.external_io != rules::ExternalIo::kNone) {
    IoCost c{"external-io", args.external_io, *head, 0, {}};
    for (uint32_t t : externals) c.tensors.push_back(Describe(model, t));
    step.external_io = selection.external_io;
    head = head_of(step);
    if (!head.ok()) return head.status();
    c.head_after = *head;
    costs.push_back(std::move(c));
  }
  if (!selection.keep.empty()) {
    IoCost c{"keep", Join(args.keep), *head, 0, {}};
    for (uint32_t t : selection.keep) c.tensors.push_back(Describe(model, t));
    step.keep = selection.keep;
    head = head_of(step);
    if (!head.ok()) return head.status();
    c.head_after = *head;
    costs.push_back(std::move(c));
  }
  return costs;
}

std::string IoCostText(const std::vector<IoCost>& costs) {
  std::string out;
  for (const IoCost& c : costs) {
    uint64_t bytes = 0;
    for (const IoCost::Tensor& t : c.tensors) bytes += t.bytes;
    const int64_t delta = static_cast<int64_t>(c.head_after) - static_cast<int64_t>(c.head_before);
    char line[320];
    std::snprintf(line, sizeof(line), "%-12s %s: %zu tensor%s, %llu bytes %s; head %llu -> %llu bytes (%+lld)\n",
                  c.option.c_str(), report::Printable(c.value).c_str(), c.tensors.size(),
                  c.tensors.size() == 1 ? "" : "s", static_cast<unsigned long long>(bytes),
                  c.option == "keep" ? "kept to the end" : "bound by the application",
                  static_cast<unsigned long long>(c.head_before), static_cast<unsigned long long>(c.head_after),
                  static_cast<long long>(delta));
    out += line;
  }
  return out;
}

nlohmann::json IoCostJson(const std::vector<IoCost>& costs) {
  nlohmann::json out = nlohmann::json::array();
  for (const IoCost& c : costs) {
    nlohmann::json tensors = nlohmann::json::array();
    for (const IoCost::Tensor& t : c.tensors) {
      tensors.push_back({{"index", t.index}, {"name", report::Printable(t.name)}, {"bytes", t.bytes}});
    }
    out.push_back({{"option", c.option},
                   {"value", report::Printable(c.value)},
                   {"head_before", c.head_before},
                   {"head_after", c.head_after},
                   {"delta_bytes", static_cast<int64_t>(c.head_after) - static_cast<int64_t>(c.head_before)},
                   {"tensors", tensors}});
  }
  return out;
}

}  // namespace arenaplan::cli
