#include "rules/schedule.h"

#include "rules/limits.h"

#include <cstring>

namespace arenaplan::rules {
namespace {

using U64 = unsigned long long;

int32_t Word(const uint8_t* p) { return LittleEndianWord(p); }

// (subgraph, op, kind) of a before b.
bool Before(const ScheduleRecord& a, const ScheduleRecord& b) {
  if (a.subgraph != b.subgraph) return a.subgraph < b.subgraph;
  if (a.op != b.op) return a.op < b.op;
  return static_cast<int32_t>(a.kind) < static_cast<int32_t>(b.kind);
}

bool Streamable(int32_t code) {
  return code == static_cast<int32_t>(tfl::BuiltinOperator::CONV_2D) ||
         code == static_cast<int32_t>(tfl::BuiltinOperator::DEPTHWISE_CONV_2D) ||
         code == static_cast<int32_t>(tfl::BuiltinOperator::AVERAGE_POOL_2D) ||
         code == static_cast<int32_t>(tfl::BuiltinOperator::MAX_POOL_2D);
}

}  // namespace

ScheduleRecord ScheduleAt(const Schedule& s, uint32_t i) {
  const uint8_t* p = s.records + static_cast<U64>(i) * kScheduleRecordWords * 4;
  ScheduleRecord r;
  r.subgraph = Word(p);
  r.op = Word(p + 4);
  r.kind = static_cast<ScheduleKind>(Word(p + 8));
  r.a = Word(p + 12);
  r.b = Word(p + 16);
  r.c = Word(p + 20);
  r.d = Word(p + 24);
  r.value = Word(p + 28);
  return r;
}

StatusCode DecodeSchedule(const uint8_t* data, uint64_t size, const uint32_t* op_base, uint32_t subgraphs,
                          Schedule* schedule, ErrorText* error) {
  *schedule = Schedule{};
  if (data == nullptr || size < 8) {
    SetError(error, "schedule: %llu bytes, need at least 8 (version, count)", static_cast<U64>(size));
    return StatusCode::kInvalidModel;
  }
  const int32_t version = Word(data);
  if (version != kScheduleVersion) {
    SetError(error, "schedule: version %d, this runtime reads version %d", version, kScheduleVersion);
    return StatusCode::kUnsupported;
  }
  const int32_t n = Word(data + 4);
  const uint64_t need = n < 0 ? 0 : 8 + uint64_t{4} * kScheduleRecordWords * static_cast<uint64_t>(n);
  if (n < 0 || size != need) {
    SetError(error, "schedule: count %d does not match its %llu bytes", n, static_cast<U64>(size));
    return StatusCode::kInvalidModel;
  }
  Schedule s;
  s.records = data + 8;
  s.count = static_cast<uint32_t>(n);
  for (uint32_t i = 0; i < s.count; ++i) {
    const ScheduleRecord r = ScheduleAt(s, i);
    if (r.subgraph < 0 || static_cast<uint32_t>(r.subgraph) >= subgraphs || r.op < 0 ||
        static_cast<uint32_t>(r.op) >= op_base[r.subgraph + 1] - op_base[r.subgraph]) {
      SetError(error, "schedule: record %u names subgraph %d, op %d, which the model does not have", i, r.subgraph,
               r.op);
      return StatusCode::kInvalidModel;
    }
    if (r.kind != ScheduleKind::kExplicitPadding && r.kind != ScheduleKind::kInPlace && r.kind != ScheduleKind::kStream) {
      SetError(error, "schedule: record %u (subgraph %d, op %d): unknown kind %d", i, r.subgraph, r.op,
               static_cast<int32_t>(r.kind));
      return StatusCode::kUnsupported;
    }
    if (r.a < 0 || r.b < 0 || r.c < 0 || r.d < 0) {
      SetError(error, "schedule: record %u (subgraph %d, op %d): negative padding (%d, %d, %d, %d)", i, r.subgraph,
               r.op, r.a, r.b, r.c, r.d);
      return StatusCode::kInvalidModel;
    }
    if (r.kind == ScheduleKind::kInPlace && (r.a != 0 || r.b != 0 || r.c != 0 || r.d != 0 || r.value != 0)) {
      SetError(error, "schedule: record %u (subgraph %d, op %d): in place takes no amounts", i, r.subgraph, r.op);
      return StatusCode::kInvalidModel;
    }
    if (r.kind == ScheduleKind::kStream) {
      const uint32_t ops = op_base[r.subgraph + 1] - op_base[r.subgraph];
      if (r.a < 2 || static_cast<uint32_t>(r.a) > ops - static_cast<uint32_t>(r.op) || r.b > 1 ||
          (r.b == 0 && r.c != 0) || r.c % static_cast<int32_t>(kBufferAlignment) != 0 || r.d != 0 || r.value != 0) {
        SetError(error,
                 "schedule: record %u (subgraph %d, op %d): a stream of %d ops, overlap %d at %d (needs 2 .. the ops "
                 "left, overlap 0 or 1, a 16-multiple offset only with overlap 1, d and value 0)",
                 i, r.subgraph, r.op, r.a, r.b, r.c);
        return StatusCode::kInvalidModel;
      }
    }
    if (i > 0 && !Before(ScheduleAt(s, i - 1), r)) {
      SetError(error, "schedule: record %u (subgraph %d, op %d) is out of order or repeated", i, r.subgraph, r.op);
      return StatusCode::kInvalidModel;
    }
  }
  *schedule = s;
  return StatusCode::kOk;
}

StatusCode CheckStreamRecords(const ModelIndex& index, const Schedule& s, ErrorText* error) {
  int32_t end = -1;  // last op of the latest stream (records are sorted by op)
  for (uint32_t k = 0; k < s.count; ++k) {
    const ScheduleRecord r = ScheduleAt(s, k);
    if (r.kind == ScheduleKind::kInPlace && r.op <= end) {
      SetError(error, "schedule: record %u: op %d is marked in place inside a stream (ops up to %d)", k, r.op, end);
      return StatusCode::kInvalidModel;
    }
    if (r.kind != ScheduleKind::kStream) continue;
    if (index.num_subgraphs != 1) {
      SetError(error, "schedule: record %u: a stream in a model with %u subgraphs (streams need exactly one)", k,
               index.num_subgraphs);
      return StatusCode::kUnsupported;
    }
    if (r.op <= end || (k > 0 && ScheduleAt(s, k - 1).op == r.op && ScheduleAt(s, k - 1).kind == ScheduleKind::kInPlace)) {
      SetError(error, "schedule: record %u: the stream at op %d overlaps another stream or an in-place op", k, r.op);
      return StatusCode::kInvalidModel;
    }
    for (int32_t i = r.op; i < r.op + r.a; ++i) {
      const int32_t code = BuiltinCode(index.code_of(index.op(0, static_cast<uint32_t>(i))));
      if (!Streamable(code)) {
        SetError(error, "schedule: record %u: op %d in a stream is not a CONV_2D, DEPTHWISE_CONV_2D or 2D pool", k, i);
        return StatusCode::kInvalidModel;
      }
    }
    end = r.op + r.a - 1;
  }
  return StatusCode::kOk;
}

StatusCode ReadSchedule(const ModelIndex& index, const ModelFile& file, Schedule* schedule, ErrorText* error) {
  *schedule = Schedule{};
  constexpr uint32_t kNameLength = sizeof(kScheduleMetadataName) - 1;
  const tfl::Model& model = *index.model;
  for (uint32_t i = 0; i < Size(model.metadata()); ++i) {
    const flatbuffers::String* name = model.metadata()->Get(i)->name();
    if (name == nullptr || name->size() != kNameLength || std::memcmp(name->data(), kScheduleMetadataName, kNameLength) != 0) {
      continue;
    }
    const uint8_t* data = nullptr;
    uint64_t size = 0;
    BufferData(model, file, model.metadata()->Get(i)->buffer(), &data, &size);
    Schedule s;
    RT_RETURN_IF_ERROR(DecodeSchedule(data, size, index.op_base, index.num_subgraphs, &s, error));
    RT_RETURN_IF_ERROR(CheckStreamRecords(index, s, error));
    for (uint32_t k = 0; k < s.count; ++k) {
      const ScheduleRecord r = ScheduleAt(s, k);
      if (r.kind == ScheduleKind::kStream) continue;  // CheckStreamRecords
      const int32_t code = BuiltinCode(index.code_of(index.op(static_cast<uint32_t>(r.subgraph), static_cast<uint32_t>(r.op))));
      const bool depthwise = code == static_cast<int32_t>(tfl::BuiltinOperator::DEPTHWISE_CONV_2D);
      const bool elementwise = code == static_cast<int32_t>(tfl::BuiltinOperator::ADD) ||
                               code == static_cast<int32_t>(tfl::BuiltinOperator::SUB) ||
                               code == static_cast<int32_t>(tfl::BuiltinOperator::MUL);
      const bool quantize = code == static_cast<int32_t>(tfl::BuiltinOperator::QUANTIZE);
      if (r.kind == ScheduleKind::kInPlace && !depthwise && !elementwise && !quantize) {
        SetError(error,
                 "schedule: record %u: in place on subgraph %d, op %d, which is not a DEPTHWISE_CONV_2D, ADD, SUB, "
                 "MUL or QUANTIZE",
                 k, r.subgraph, r.op);
        return StatusCode::kInvalidModel;
      }
      if (r.kind == ScheduleKind::kInPlace) continue;
      if (code != static_cast<int32_t>(tfl::BuiltinOperator::CONV_2D) && !depthwise) {
        SetError(error, "schedule: record %u: explicit padding on subgraph %d, op %d, which is not a convolution", k,
                 r.subgraph, r.op);
        return StatusCode::kInvalidModel;
      }
    }
    *schedule = s;
    return StatusCode::kOk;
  }
  return StatusCode::kOk;
}

bool FindScheduleRecord(const Schedule& s, uint32_t subgraph, uint32_t op, ScheduleKind kind, ScheduleRecord* out) {
  ScheduleRecord key;
  key.subgraph = static_cast<int32_t>(subgraph);
  key.op = static_cast<int32_t>(op);
  key.kind = kind;
  uint32_t lo = 0, hi = s.count;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (Before(ScheduleAt(s, mid), key)) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo == s.count) return false;
  const ScheduleRecord r = ScheduleAt(s, lo);
  if (Before(key, r)) return false;
  *out = r;
  return true;
}

}  // namespace arenaplan::rules
