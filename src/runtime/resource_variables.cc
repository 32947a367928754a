#include "runtime/resource_variables.h"

#include <cstring>

namespace arenaplan::rt {

int32_t FindOrCreateResource(ResourceVariable* table, uint32_t* count, uint32_t capacity, const char* container,
                             const char* shared_name) {
  const char* name = shared_name != nullptr ? shared_name : "";
  for (uint32_t i = 0; i < *count; ++i) {
    // TFLM: a lookup without a container matches any; we also let a stored null match any.
    const bool same_container =
        container == nullptr || table[i].container == nullptr || std::strcmp(container, table[i].container) == 0;
    if (same_container && std::strcmp(name, table[i].shared_name) == 0) return static_cast<int32_t>(i);
  }
  if (*count >= capacity) return -1;
  table[*count] = ResourceVariable{container, name, 0, 0, 0};
  return static_cast<int32_t>((*count)++);
}

}  // namespace arenaplan::rt
