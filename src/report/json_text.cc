#include "report/json_text.h"

namespace arenaplan::report {

std::string JsonText(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace arenaplan::report
