#include "cli/tensor_dump.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "cli/model_file.h"
#include "report/printable.h"
#include "runtime/test_inputs.h"

namespace arenaplan::cli {
namespace {

namespace fs = std::filesystem;

nlohmann::json QuantizationJson(const model::Tensor& t) {
  if (!t.quantization) return nullptr;
  return {{"scale", t.quantization->scale},
          {"zero_point", t.quantization->zero_point},
          {"quantized_dimension", t.quantization->quantized_dimension}};
}

std::string Hex64(uint64_t v) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(v));
  return hex;
}

std::string ShapeText(const nlohmann::json& shape) { return shape.dump(); }

// Element `i` of a dumped tensor as text, read by its dtype (raw byte for types not listed).
std::string Element(const std::string& dtype, const std::vector<uint8_t>& bytes, size_t i) {
  auto read = [&](auto zero) {
    decltype(zero) v;
    std::memcpy(&v, bytes.data() + i * sizeof v, sizeof v);
    return v;
  };
  char buf[48];
  if (dtype == "FLOAT32")
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(read(float{})));
  else if (dtype == "FLOAT64")
    std::snprintf(buf, sizeof buf, "%.17g", read(double{}));
  else if (dtype == "INT8")
    std::snprintf(buf, sizeof buf, "%d", read(int8_t{}));
  else if (dtype == "UINT8" || dtype == "BOOL")
    std::snprintf(buf, sizeof buf, "%u", read(uint8_t{}));
  else if (dtype == "INT16")
    std::snprintf(buf, sizeof buf, "%d", read(int16_t{}));
  else if (dtype == "UINT16")
    std::snprintf(buf, sizeof buf, "%u", read(uint16_t{}));
  else if (dtype == "INT32")
    std::snprintf(buf, sizeof buf, "%d", read(int32_t{}));
  else if (dtype == "UINT32")
    std::snprintf(buf, sizeof buf, "%u", read(uint32_t{}));
  else if (dtype == "INT64")
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(read(int64_t{})));
  else
    std::snprintf(buf, sizeof buf, "0x%02x", bytes[i]);
  return buf;
}

size_t ElementSize(const std::string& dtype) {
  if (dtype == "FLOAT64" || dtype == "INT64" || dtype == "UINT64" || dtype == "COMPLEX64") return 8;
  if (dtype == "FLOAT32" || dtype == "INT32" || dtype == "UINT32") return 4;
  if (dtype == "INT16" || dtype == "UINT16" || dtype == "FLOAT16" || dtype == "BFLOAT16") return 2;
  return 1;
}

// "op 3 (CONV_2D), tensor 'name' (s0t7, INT8 [1,2,3])".
std::string Describe(const nlohmann::json& e) {
  const uint32_t sg = e.at("subgraph").get<uint32_t>();
  return std::string(sg ? "subgraph " + std::to_string(sg) + ", " : "") + "op " +
         std::to_string(e.at("op").get<uint32_t>()) + " (" + e.at("op_name").get<std::string>() + "), tensor '" +
         e.at("name").get<std::string>() + "' (s" + std::to_string(sg) + "t" +
         std::to_string(e.at("tensor").get<int32_t>()) + ", " + e.at("dtype").get<std::string>() + " " +
         ShapeText(e.at("shape")) + ")";
}

// A tensor's bytes; the index names a file inside the dump folder, nothing else.
Result<std::vector<uint8_t>> ReadDumpFile(const std::string& dir, const nlohmann::json& entry) {
  const std::string file = entry.at("file").get<std::string>();
  if (file.empty() || file.find('/') != std::string::npos || file[0] == '.') {
    return InvalidArgument(dir + "/index.json: bad file name '" + file + "'");
  }
  return ReadFile(dir + "/" + file);
}

// How two dumps of one tensor differ ("" when they are equal).
Result<std::string> TensorDifference(const std::string& dir_a, const nlohmann::json& a, const std::string& dir_b,
                                     const nlohmann::json& b) {
  if (a.at("dtype") != b.at("dtype")) {
    return "dtypes differ: " + a.at("dtype").get<std::string>() + " vs " + b.at("dtype").get<std::string>();
  }
  if (a.at("shape") != b.at("shape"))
    return "shapes differ: " + ShapeText(a.at("shape")) + " vs " + ShapeText(b.at("shape"));
  auto da = ReadDumpFile(dir_a, a);
  if (!da.ok()) return da.status();
  auto db = ReadDumpFile(dir_b, b);
  if (!db.ok()) return db.status();
  if (da->size() != db->size()) {
    return "sizes differ: " + std::to_string(da->size()) + " vs " + std::to_string(db->size()) + " bytes";
  }
  if (*da == *db) return std::string();
  const std::string dtype = a.at("dtype").get<std::string>();
  const size_t esize = ElementSize(dtype), count = da->size() / esize;
  size_t differ = 0, first = count;
  for (size_t i = 0; i < count; ++i) {
    if (std::memcmp(da->data() + i * esize, db->data() + i * esize, esize) != 0) {
      if (first == count) first = i;
      ++differ;
    }
  }
  if (first == count) return std::string("bytes differ");  // only in a trailing partial element
  return std::to_string(differ) + " of " + std::to_string(count) + " elements differ, first at element " +
         std::to_string(first) + ": " + Element(dtype, *da, first) + " vs " + Element(dtype, *db, first);
}

Result<nlohmann::json> ReadIndex(const std::string& dir) {
  auto text = ReadFile(dir + "/index.json");
  if (!text.ok()) return InvalidArgument(dir + ": not a tensor dump (" + text.status().message() + ")");
  nlohmann::json j = nlohmann::json::parse(text->begin(), text->end(), nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("tensors") || !j.at("tensors").is_array()) {
    return InvalidArgument(dir + "/index.json: not a tensor dump index");
  }
  return j;
}

}  // namespace

std::string SanitizeFileName(const std::string& name) {
  std::string out;
  for (const char c : name) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                      c == '_' || c == '-';
    out += keep ? c : '_';
    if (out.size() == 100) break;
  }
  if (!out.empty() && out[0] == '.') out[0] = '_';
  return out;
}

Status TensorDumper::Prepare() const {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) return InvalidArgument("cannot create '" + dir_ + "': " + ec.message());
  return Status::Ok();
}

rt::StatusCode TensorDumper::AfterOp(void* user, const rt::Interpreter& interpreter, uint32_t subgraph, uint32_t op) {
  auto* self = static_cast<TensorDumper*>(user);
  return self->enabled ? self->Dump(interpreter, subgraph, op) : rt::StatusCode::kOk;
}

std::string TensorDumper::FileName(uint32_t subgraph, uint32_t op, int32_t tensor, const std::string& name) {
  std::string stem = (subgraph ? "s" + std::to_string(subgraph) + "_" : "") + std::to_string(op) + "_" +
                     SanitizeFileName(name);
  // Two outputs of one op whose names sanitize alike get their tensor index appended.
  const auto owner = std::make_pair(subgraph, tensor);
  auto [it, fresh] = owner_of_.emplace(stem + ".bin", owner);
  if (!fresh && it->second != owner) {
    stem += "_t" + std::to_string(tensor);
    owner_of_.emplace(stem + ".bin", owner);
  }
  return stem + ".bin";
}

rt::StatusCode TensorDumper::Dump(const rt::Interpreter& interpreter, uint32_t subgraph, uint32_t op) {
  const model::Subgraph& sg = model_.subgraphs[subgraph];
  const model::Operator& o = sg.operators[op];
  for (const int32_t t : o.outputs) {
    const rt::TensorView v = interpreter.subgraph_tensor(subgraph, static_cast<uint32_t>(t));
    if (v.data == nullptr && v.bytes > 0) continue;  // not materialised (omitted output)
    const model::Tensor& tensor = sg.tensors[static_cast<size_t>(t)];
    const auto key = std::make_pair(subgraph, t);
    auto found = entry_of_.find(key);
    if (found == entry_of_.end()) {
      nlohmann::json e = {{"file", FileName(subgraph, op, t, tensor.name)},
                          {"subgraph", subgraph},
                          {"op", op},
                          {"op_name", model_.code_of(o).name},
                          {"tensor", t},
                          {"name", tensor.name},
                          {"quantization", QuantizationJson(tensor)},
                          {"executions", 0}};
      found = entry_of_.emplace(key, index_.size()).first;
      index_.push_back(std::move(e));
    }
    nlohmann::json& e = index_[found->second];
    e["dtype"] = rt::TypeName(v.type);
    e["shape"] = std::vector<int32_t>(v.dims, v.dims + v.rank);
    e["bytes"] = v.bytes;
    e["fnv1a64"] = Hex64(rt::Fnv1a64(v.data, v.bytes));
    e["executions"] = e["executions"].get<uint32_t>() + 1;
    const std::string path = dir_ + "/" + e["file"].get<std::string>();
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(static_cast<const char*>(v.data), v.bytes);
    if (!f) {
      status_ = InvalidArgument("cannot write " + path);
      return rt::StatusCode::kBadArgument;
    }
  }
  return rt::StatusCode::kOk;
}

Status TensorDumper::WriteIndex(const nlohmann::json& header) const {
  nlohmann::json j = header;
  j["tensors"] = index_;
  return WriteTextFile(dir_ + "/index.json", report::JsonText(j, 1) + "\n");
}

nlohmann::json DumpComparison::ToJson() const {
  return {{"compared", compared},
          {"only_first", only_first},
          {"only_second", only_second},
          {"differs", differs},
          {"difference", differs ? nlohmann::json(difference) : nlohmann::json(nullptr)}};
}

Result<DumpComparison> CompareDumps(const std::string& first, const std::string& second) {
  auto a = ReadIndex(first);
  if (!a.ok()) return a.status();
  auto b = ReadIndex(second);
  if (!b.ok()) return b.status();
  try {
    // Second dump by (subgraph, name); a name produced twice is matched in order.
    std::map<std::pair<uint32_t, std::string>, std::vector<size_t>> in_b;
    const nlohmann::json& tb = b->at("tensors");
    for (size_t i = tb.size(); i-- > 0;) {
      in_b[{tb[i].at("subgraph").get<uint32_t>(), tb[i].at("name").get<std::string>()}].push_back(i);
    }
    DumpComparison c;
    for (const nlohmann::json& e : a->at("tensors")) {
      auto it = in_b.find({e.at("subgraph").get<uint32_t>(), e.at("name").get<std::string>()});
      if (it == in_b.end() || it->second.empty()) {
        ++c.only_first;
        continue;
      }
      const nlohmann::json& other = tb[it->second.back()];
      it->second.pop_back();
      ++c.compared;
      auto diff = TensorDifference(first, e, second, other);
      if (!diff.ok()) return diff.status();
      if (!diff->empty()) {
        c.differs = true;
        c.difference = Describe(e) + ": " + *diff;
        return c;
      }
    }
    for (const auto& [key, left] : in_b) c.only_second += left.size();
    return c;
  } catch (const nlohmann::json::exception& e) {
    return InvalidArgument(first + " / " + second + ": malformed index.json (" + e.what() + ")");
  }
}

}  // namespace arenaplan::cli
