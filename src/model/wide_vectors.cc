#include "model/wide_vectors.h"

#include <vector>

#include "flatbuffers/minireflect.h"

namespace arenaplan::model {

namespace {

using flatbuffers::ElementaryType;
using flatbuffers::TypeTable;

// The path back to the failing vector, innermost name first (built only on failure).
using Path = std::vector<std::string>;

bool Walk(const uint8_t* base, const uint8_t* table, const TypeTable* type, Path& path);

std::string FieldName(const TypeTable* type, size_t i) {
  return type->names != nullptr ? type->names[i] : "field " + std::to_string(i);
}

const uint8_t* Deref(const uint8_t* p) { return p + flatbuffers::ReadScalar<flatbuffers::uoffset_t>(p); }

// The table a union value points to, by its tag; nullptr for NONE or a tag past the schema.
const TypeTable* UnionMember(const TypeTable* u, uint8_t tag) {
  const int64_t i = flatbuffers::LookupEnum(tag, u->values, u->num_elems);
  if (i < 0 || static_cast<size_t>(i) >= u->num_elems) return nullptr;
  const flatbuffers::TypeCode code = u->type_codes[i];
  if (code.base_type != flatbuffers::ET_SEQUENCE || code.sequence_ref < 0) return nullptr;
  const TypeTable* member = u->type_refs[code.sequence_ref]();
  return member->st == flatbuffers::ST_TABLE ? member : nullptr;
}

// One element (or the single value) of a field whose type is a table or a union; `tag` is the
// union's type byte.
bool WalkValue(const uint8_t* base, const uint8_t* slot, const TypeTable* ref, uint8_t tag, Path& path) {
  if (ref->st == flatbuffers::ST_TABLE) return Walk(base, Deref(slot), ref, path);
  if (ref->st == flatbuffers::ST_UNION) {
    const TypeTable* member = UnionMember(ref, tag);
    return member == nullptr || Walk(base, Deref(slot), member, path);
  }
  return true;  // structs: the Verifier checked their alignment as a whole
}

// Field `i` of a table, stored at `slot`; `prev` is the field before it (a union's tags).
bool WalkField(const uint8_t* base, const TypeTable* type, size_t i, const uint8_t* slot, const uint8_t* prev,
               Path& path) {
  const flatbuffers::TypeCode code = type->type_codes[i];
  const auto et = static_cast<ElementaryType>(code.base_type);
  const TypeTable* ref = code.sequence_ref >= 0 ? type->type_refs[code.sequence_ref]() : nullptr;
  const bool is_union = et == flatbuffers::ET_SEQUENCE && ref->st == flatbuffers::ST_UNION;
  if (!code.is_repeating) {
    if (et != flatbuffers::ET_SEQUENCE) return true;
    const uint8_t tag = is_union && prev != nullptr ? *prev : 0;
    if (WalkValue(base, slot, ref, tag, path)) return true;
    path.push_back(FieldName(type, i));
    return false;
  }
  const uint8_t* vec = Deref(slot);
  const uint8_t* data = vec + sizeof(flatbuffers::uoffset_t);
  if (et != flatbuffers::ET_SEQUENCE || ref->st == flatbuffers::ST_STRUCT) {
    if (flatbuffers::InlineSize(et, ref) != 8 || (data - base) % 8 == 0) return true;
    path.push_back(FieldName(type, i));
    return false;
  }
  // A vector of unions keeps its tags in the vector field before it (the Verifier checked both
  // have the same length).
  const uint8_t* tags = is_union && prev != nullptr ? Deref(prev) + sizeof(flatbuffers::uoffset_t) : nullptr;
  const auto n = flatbuffers::ReadScalar<flatbuffers::uoffset_t>(vec);
  for (flatbuffers::uoffset_t j = 0; j < n; ++j) {
    const uint8_t tag = tags != nullptr ? tags[j] : 0;
    if (!WalkValue(base, data + sizeof(flatbuffers::uoffset_t) * j, ref, tag, path)) {
      path.push_back(FieldName(type, i) + "[" + std::to_string(j) + "]");
      return false;
    }
  }
  return true;
}

bool Walk(const uint8_t* base, const uint8_t* table, const TypeTable* type, Path& path) {
  const auto* t = reinterpret_cast<const flatbuffers::Table*>(table);
  const uint8_t* prev = nullptr;
  for (size_t i = 0; i < type->num_elems; ++i) {
    const uint8_t* slot = t->GetAddressOf(flatbuffers::FieldIndexToOffset(static_cast<flatbuffers::voffset_t>(i)));
    if (slot != nullptr && !WalkField(base, type, i, slot, prev, path)) return false;
    prev = slot;
  }
  return true;
}

}  // namespace

std::optional<std::string> MisalignedWideVector(const uint8_t* base, const uint8_t* table, const TypeTable* type) {
  Path path;
  if (Walk(base, table, type, path)) return std::nullopt;
  std::string s;
  for (auto it = path.rbegin(); it != path.rend(); ++it) s += (s.empty() ? "" : ".") + *it;
  return s;
}

}  // namespace arenaplan::model
