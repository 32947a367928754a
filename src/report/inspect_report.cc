#include "report/inspect_report.h"

#include <algorithm>
#include <cstdio>

#include "model/offline_plan.h"
#include "model/static_problems.h"
#include "report/printable.h"

namespace arenaplan::report {
namespace {

// The lines `arenaplan optimize` recorded in the model, if any.
std::vector<std::string> OptimizeLines(const model::Model& m) {
  std::vector<std::string> lines;
  for (const auto& e : m.metadata) {
    if (e.name != model::kOptimizeMetadataName || e.buffer >= m.buffers.size()) continue;
    const auto& b = m.buffers[e.buffer];
    const std::string text(reinterpret_cast<const char*>(b.data), b.data != nullptr ? b.size : 0);
    size_t at = 0;
    for (size_t nl; (nl = text.find('\n', at)) != std::string::npos; at = nl + 1)
      lines.push_back(text.substr(at, nl - at));
    if (at < text.size()) lines.push_back(text.substr(at));
  }
  return lines;
}

std::string ShapeString(const std::vector<int32_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

std::string IndexList(const std::vector<int32_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

bool Contains(const std::vector<int32_t>& v, int32_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

std::string Flags(const model::Subgraph& sg, size_t t) {
  const auto& tensor = sg.tensors[t];
  std::string f;
  auto add = [&](const char* s) { f += f.empty() ? s : std::string(",") + s; };
  if (tensor.has_data) add("const");
  if (tensor.is_variable) add("var");
  if (Contains(sg.inputs, static_cast<int32_t>(t))) add("in");
  if (Contains(sg.outputs, static_cast<int32_t>(t))) add("out");
  return f;
}

}  // namespace

InspectedModel Inspect(const std::string& model_path, const model::Model& m) {
  InspectedModel in;
  in.model = model_path;
  in.parsed = &m;
  if (m.offline_plan) in.offline_plan_status = model::ValidateOfflinePlan(m);
  in.static_problems = model::StaticPlanningProblems(m);
  return in;
}

std::vector<std::string> OperatorSet(const model::Model& model) {
  std::vector<std::string> names;
  for (const auto& sg : model.subgraphs) {
    for (const auto& op : sg.operators) {
      const std::string& n = model.code_of(op).name;
      if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    }
  }
  return names;
}

nlohmann::json InspectToJson(const InspectedModel& in) {
  const model::Model& m = *in.parsed;
  nlohmann::json j;
  j["model"] = in.model;
  j["version"] = m.version;
  j["description"] = m.description;
  j["operator_set"] = OperatorSet(m);
  nlohmann::json sgs = nlohmann::json::array();
  for (size_t s = 0; s < m.subgraphs.size(); ++s) {
    const auto& sg = m.subgraphs[s];
    nlohmann::json tensors = nlohmann::json::array();
    for (size_t t = 0; t < sg.tensors.size(); ++t) {
      const auto& tn = sg.tensors[t];
      nlohmann::json q = nullptr;
      if (tn.quantization) {
        q = {{"scale", tn.quantization->scale},
             {"zero_point", tn.quantization->zero_point},
             {"quantized_dimension", tn.quantization->quantized_dimension}};
      }
      tensors.push_back({{"index", t},
                         {"name", tn.name},
                         {"dtype", model::TensorTypeName(tn.type)},
                         {"shape", tn.shape},
                         {"shape_signature", tn.shape_signature},
                         {"bytes", tn.bytes ? nlohmann::json(*tn.bytes) : nlohmann::json(nullptr)},
                         {"constant", tn.has_data},
                         {"variable", tn.is_variable},
                         {"input", Contains(sg.inputs, static_cast<int32_t>(t))},
                         {"output", Contains(sg.outputs, static_cast<int32_t>(t))},
                         {"buffer", tn.buffer},
                         {"quantization", q}});
    }
    nlohmann::json ops = nlohmann::json::array();
    for (size_t o = 0; o < sg.operators.size(); ++o) {
      const auto& op = sg.operators[o];
      const auto& code = m.code_of(op);
      ops.push_back({{"index", o},
                     {"op", code.name},
                     {"version", code.version},
                     {"inputs", op.inputs},
                     {"outputs", op.outputs},
                     {"intermediates", op.intermediates},
                     {"called_subgraphs", op.called_subgraphs}});
    }
    sgs.push_back({{"index", s},
                   {"name", sg.name},
                   {"inputs", sg.inputs},
                   {"outputs", sg.outputs},
                   {"tensors", std::move(tensors)},
                   {"operators", std::move(ops)}});
  }
  j["subgraphs"] = std::move(sgs);
  nlohmann::json md = nlohmann::json::array();
  for (const auto& e : m.metadata) {
    const uint64_t bytes = e.buffer < m.buffers.size() ? m.buffers[e.buffer].size : 0;
    md.push_back({{"name", e.name}, {"buffer", e.buffer}, {"bytes", bytes}});
  }
  j["metadata"] = std::move(md);
  j["optimized"] = nlohmann::json(nullptr);
  if (const auto lines = OptimizeLines(m); !lines.empty()) j["optimized"] = lines;
  if (m.offline_plan) {
    j["offline_plan"] = {{"valid", in.offline_plan_status.ok()},
                         {"error", in.offline_plan_status.ok() ? nlohmann::json(nullptr)
                                                               : nlohmann::json(in.offline_plan_status.message())},
                         {"version", m.offline_plan->version},
                         {"count", m.offline_plan->offsets.size()},
                         {"offsets", m.offline_plan->offsets}};
  } else {
    j["offline_plan"] = nullptr;
  }
  j["static_planning_problems"] = in.static_problems;
  return j;
}

std::string InspectToText(const InspectedModel& in) {
  const model::Model& m = *in.parsed;
  std::string out;
  char line[512];
  size_t tensors = 0, ops = 0;
  for (const auto& sg : m.subgraphs) {
    tensors += sg.tensors.size();
    ops += sg.operators.size();
  }
  std::snprintf(line, sizeof line, "model      %s (schema v%u)\n", in.model.c_str(), m.version);
  out += line;
  std::snprintf(line, sizeof line, "contents   %zu subgraphs, %zu tensors, %zu operators, %zu buffers\n",
                m.subgraphs.size(), tensors, ops, m.buffers.size());
  out += line;
  std::string set;
  for (const auto& n : OperatorSet(m)) set += (set.empty() ? "" : " ") + Printable(n);
  out += "operators  " + set + "\n";

  for (size_t s = 0; s < m.subgraphs.size(); ++s) {
    const auto& sg = m.subgraphs[s];
    std::snprintf(line, sizeof line, "\nsubgraph %zu \"%s\": inputs [%s], outputs [%s]\n", s,
                  Printable(sg.name, 200).c_str(), IndexList(sg.inputs).c_str(), IndexList(sg.outputs).c_str());
    out += line;
    std::snprintf(line, sizeof line, "  %4s %-34s %-8s %-18s %10s %s\n", "#", "tensor", "dtype", "shape", "bytes",
                  "kind");
    out += line;
    for (size_t t = 0; t < sg.tensors.size(); ++t) {
      const auto& tn = sg.tensors[t];
      std::snprintf(line, sizeof line, "  %4zu %-34s %-8s %-18s %10s %s\n", t, Printable(tn.name, 34).c_str(),
                    model::TensorTypeName(tn.type), ShapeString(tn.shape).c_str(),
                    tn.bytes ? std::to_string(*tn.bytes).c_str() : "?", Flags(sg, t).c_str());
      out += line;
    }
    std::snprintf(line, sizeof line, "  %4s %-26s %-24s %-24s %s\n", "#", "operator", "inputs", "outputs", "calls");
    out += line;
    for (size_t o = 0; o < sg.operators.size(); ++o) {
      const auto& op = sg.operators[o];
      std::snprintf(line, sizeof line, "  %4zu %-26s %-24s %-24s %s\n", o, Printable(m.code_of(op).name, 200).c_str(),
                    IndexList(op.inputs).c_str(), IndexList(op.outputs).c_str(),
                    IndexList(op.called_subgraphs).c_str());
      out += line;
    }
  }

  out += "\nmetadata\n";
  if (m.metadata.empty()) out += "  (none)\n";
  for (const auto& e : m.metadata) {
    const uint64_t bytes = e.buffer < m.buffers.size() ? m.buffers[e.buffer].size : 0;
    std::snprintf(line, sizeof line, "  %-32s buffer %u, %llu bytes\n", Printable(e.name, 200).c_str(), e.buffer,
                  static_cast<unsigned long long>(bytes));
    out += line;
  }
  for (const auto& l : OptimizeLines(m)) out += "  optimized: " + l + "\n";
  if (m.offline_plan) {
    size_t fixed = 0;
    for (int32_t off : m.offline_plan->offsets) fixed += off >= 0;
    std::snprintf(line, sizeof line, "offline plan: %zu entries, %zu fixed offsets%s\n", m.offline_plan->offsets.size(),
                  fixed, in.offline_plan_status.ok() ? "" : " (INVALID)");
    out += line;
    if (!in.offline_plan_status.ok()) out += "  " + Printable(in.offline_plan_status.message()) + "\n";
  }
  out += "\nstatic planning: ";
  if (in.static_problems.empty()) {
    out += "every tensor has a static size\n";
  } else {
    out += std::to_string(in.static_problems.size()) + " problem(s)\n";
    for (const auto& p : in.static_problems) out += "  " + Printable(p) + "\n";
  }
  return out;
}

}  // namespace arenaplan::report
