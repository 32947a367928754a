// Resource variables: the table (TFLM's MicroResourceVariables): fixed capacity, one entry per
// VAR_HANDLE op, kept in the arena tail. An id is an index; names point into the model (flash).
// Lookup by (container, shared_name) is a linear scan, O(capacity), done only in prepare.
// resource_variables.cc also holds the interpreter's KernelContext methods over the table.
#pragma once

#include <cstdint>

namespace arenaplan::rt {

struct ResourceVariable {
  const char* container;  // nullptr: matches any container in lookups (TFLM)
  const char* shared_name;
  uint32_t offset;  // arena offset of the data (valid when bytes > 0)
  uint32_t bytes;   // 0 until an ASSIGN_VARIABLE is prepared
  int8_t fill;      // value the data starts with and returns to on Reset
};

// Id of (container, shared_name), adding an entry when none matches; -1 when the table is full.
int32_t FindOrCreateResource(ResourceVariable* table, uint32_t* count, uint32_t capacity, const char* container,
                             const char* shared_name);

}  // namespace arenaplan::rt
