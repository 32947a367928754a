#include "runtime/op_resolver.h"

namespace arenaplan::rt {

namespace {
bool SameString(const char* a, const char* b) {
  if (a == nullptr || b == nullptr) return false;
  for (; *a != '\0' && *a == *b; ++a, ++b) {}
  return *a == *b;
}
}  // namespace

const KernelRegistration* FindKernel(const OpResolver& resolver, int32_t builtin_code, const char* custom_code) {
  const bool custom = builtin_code == static_cast<int32_t>(tfl::BuiltinOperator::CUSTOM);
  for (uint32_t i = 0; i < resolver.count; ++i) {
    const OpResolverEntry& e = resolver.entries[i];
    if (e.builtin_code != builtin_code) continue;
    if (custom && !SameString(e.custom_code, custom_code)) continue;
    return e.registration != nullptr ? e.registration() : nullptr;
  }
  return resolver.fallback != nullptr ? FindKernel(resolver.fallback(), builtin_code, custom_code) : nullptr;
}

}  // namespace arenaplan::rt
