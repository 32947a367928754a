// Loading a model file for a command: the bytes stay alive beside the parsed view.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/model.h"
#include "util/result.h"

namespace arenaplan::cli {

struct LoadedModel {
  std::string path;
  std::vector<uint8_t> bytes;  // owns the data model::Buffer views point into
  model::Model model;
};

Result<std::vector<uint8_t>> ReadFile(const std::string& path);
// Writes (replaces) a whole file.
Status WriteTextFile(const std::string& path, const std::string& text);
// Reads and parses; the result is heap-held so the views stay valid when it moves.
Result<std::unique_ptr<LoadedModel>> LoadModel(const std::string& path);
// Prints "arenaplan <command>: <message>" to stderr and returns the exit code for the status.
int ReportError(const std::string& command, const Status& status);

}  // namespace arenaplan::cli
