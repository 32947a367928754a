#include "lifetime/traffic.h"

#include <algorithm>

namespace arenaplan::lifetime {
namespace {

// Accesses per tensor of one subgraph: writers and distinct-op readers.
std::vector<int64_t> Accesses(const model::Subgraph& sg, bool main) {
  const size_t n = sg.tensors.size();
  std::vector<int64_t> writes(n, 0), reads(n, 0);
  auto valid = [n](int32_t t) { return t >= 0 && static_cast<size_t>(t) < n; };
  for (const model::Operator& op : sg.operators) {
    std::vector<int32_t> in = op.inputs;
    std::sort(in.begin(), in.end());
    in.erase(std::unique(in.begin(), in.end()), in.end());
    for (int32_t t : in) {
      if (valid(t)) ++reads[t];
    }
    for (int32_t t : op.outputs) {
      if (valid(t)) ++writes[t];
    }
  }
  for (int32_t t : sg.inputs) {
    if (valid(t) && writes[t] == 0) writes[t] = 1;  // the application (or the caller op) writes it
  }
  if (main) {
    for (int32_t t : sg.outputs) {
      if (valid(t)) ++reads[t];  // the application reads it
    }
  }
  for (size_t t = 0; t < n; ++t) reads[t] += std::max<int64_t>(writes[t], 1);
  return reads;
}

}  // namespace

std::vector<int64_t> BufferTraffic(const model::Model& model, const Lifetimes& lifetimes) {
  std::vector<std::vector<int64_t>> per_subgraph;
  for (size_t s = 0; s < model.subgraphs.size(); ++s) per_subgraph.push_back(Accesses(model.subgraphs[s], s == 0));
  std::vector<int64_t> out;
  out.reserve(lifetimes.buffers.size());
  for (const BufferLifetime& b : lifetimes.buffers) {
    const auto bytes = static_cast<int64_t>(b.bytes);
    if (b.tensor < 0) {
      out.push_back(2 * bytes);
      continue;
    }
    const auto& acc = per_subgraph[static_cast<size_t>(b.subgraph)];
    out.push_back(bytes * acc[static_cast<size_t>(b.tensor)]);
  }
  return out;
}

}  // namespace arenaplan::lifetime
