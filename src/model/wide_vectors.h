// The first vector of 8-byte values (int64 / uint64 / double) that a flatbuffer stores off an
// 8-byte boundary. flatc's builder always aligns them, but flatbuffers' Verifier checks a vector's
// length word only for 4-byte alignment, so a hostile or hand-made file passes verification with
// such a vector, and every generated accessor (UnPack included) then loads it misaligned: undefined
// behaviour, and a fault on cores without unaligned 8-byte loads. Host only (std::string).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "flatbuffers/flatbuffers.h"

namespace arenaplan::model {

// Walks the table at `table` (in the verified flatbuffer starting at `base`, which must itself be
// 8-byte aligned) through every sub-table, table vector and union, by the mini-reflection
// `type` flatc generates with --reflect-types (field names with --reflect-names). Returns the path
// of the first misaligned 8-byte vector, e.g. "subgraphs[0].tensors[12].quantization.zero_point",
// or nothing when all are aligned. O(tables in the buffer); recursion as deep as the schema nests.
std::optional<std::string> MisalignedWideVector(const uint8_t* base, const uint8_t* table,
                                                const flatbuffers::TypeTable* type);

}  // namespace arenaplan::model
