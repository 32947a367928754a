#include "cli/model_file.h"

#include <cstdio>
#include <fstream>
#include <iterator>

#include "cli/commands.h"
#include "report/printable.h"

namespace arenaplan::cli {

Result<std::vector<uint8_t>> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return InvalidArgument("cannot open '" + path + "'");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return InvalidArgument("error reading '" + path + "'");
  return bytes;
}

Status WriteTextFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return InvalidArgument("cannot open '" + path + "' for writing");
  out << text;
  if (!out) return InvalidArgument("cannot write '" + path + "'");
  return Status::Ok();
}

Result<std::unique_ptr<LoadedModel>> LoadModel(const std::string& path) {
  auto bytes = ReadFile(path);
  if (!bytes.ok()) return bytes.status();
  auto loaded = std::make_unique<LoadedModel>();
  loaded->path = path;
  loaded->bytes = std::move(bytes).value();
  auto parsed = model::ReadModel(loaded->bytes.data(), loaded->bytes.size());
  if (!parsed.ok()) return Status(parsed.status().code(), path + ": " + parsed.status().message());
  loaded->model = std::move(parsed).value();
  return loaded;
}

int ReportError(const std::string& command, const Status& status) {
  std::fprintf(stderr, "arenaplan %s: %s\n", command.c_str(), report::Printable(status.message()).c_str());
  switch (status.code()) {
    case ErrorCode::kInfeasible:
    case ErrorCode::kUnsupported: return kExitNoSolution;
    default: return kExitBadInput;
  }
}

}  // namespace arenaplan::cli
