// rules/schedule.h: decoding, checking and looking up arenaplan_schedule records.
#include "rules/schedule.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace arenaplan::rules {
namespace {

std::vector<uint8_t> Words(std::vector<int32_t> w) {
  std::vector<uint8_t> out(4 * w.size());
  std::memcpy(out.data(), w.data(), out.size());  // the host is little-endian, as the format
  return out;
}

// Two subgraphs: 5 ops, then 2.
constexpr uint32_t kOpBase[] = {0, 5, 7};

TEST(RulesSchedule, DecodesAndFindsRecords) {
  // Odd start: the words are read at any alignment.
  auto bytes = Words({1, 3,                         // version, count
                      0, 1, 1, 1, 0, 1, 0, -3,      // subgraph 0, op 1: top 1, left 1, value -3
                      0, 4, 1, 2, 2, 1, 0, 0,       // subgraph 0, op 4
                      1, 0, 1, 0, 0, 0, 0, 0});     // subgraph 1, op 0
  bytes.insert(bytes.begin(), 0xAA);
  Schedule s;
  ErrorText e;
  ASSERT_EQ(DecodeSchedule(bytes.data() + 1, bytes.size() - 1, kOpBase, 2, &s, &e), StatusCode::kOk) << e.text;
  EXPECT_EQ(s.count, 3u);
  ScheduleRecord r;
  ASSERT_TRUE(FindScheduleRecord(s, 0, 4, ScheduleKind::kExplicitPadding, &r));
  EXPECT_EQ(r.a, 2);
  EXPECT_EQ(r.b, 2);
  EXPECT_EQ(r.c, 1);
  EXPECT_EQ(r.d, 0);
  ASSERT_TRUE(FindScheduleRecord(s, 0, 1, ScheduleKind::kExplicitPadding, &r));
  EXPECT_EQ(r.value, -3);
  ASSERT_TRUE(FindScheduleRecord(s, 1, 0, ScheduleKind::kExplicitPadding, &r));
  EXPECT_FALSE(FindScheduleRecord(s, 1, 0, ScheduleKind::kInPlace, &r));
  EXPECT_FALSE(FindScheduleRecord(s, 0, 0, ScheduleKind::kExplicitPadding, &r));
  EXPECT_FALSE(FindScheduleRecord(s, 0, 2, ScheduleKind::kExplicitPadding, &r));
  EXPECT_FALSE(FindScheduleRecord(s, 1, 1, ScheduleKind::kExplicitPadding, &r));
}

TEST(RulesSchedule, DecodesAStreamRecord) {
  const auto bytes = Words({1, 2, 0, 1, 1, 1, 0, 0, 0, 0, 0, 1, 3, 4, 0, 0, 0, 0});  // ops 1..4 of 5
  Schedule s;
  ErrorText e;
  ASSERT_EQ(DecodeSchedule(bytes.data(), bytes.size(), kOpBase, 2, &s, &e), StatusCode::kOk) << e.text;
  ScheduleRecord r;
  ASSERT_TRUE(FindScheduleRecord(s, 0, 1, ScheduleKind::kStream, &r));
  EXPECT_EQ(r.a, 4);
  ASSERT_TRUE(FindScheduleRecord(s, 0, 1, ScheduleKind::kExplicitPadding, &r));
  EXPECT_FALSE(FindScheduleRecord(s, 0, 2, ScheduleKind::kStream, &r));
}

TEST(RulesSchedule, RefusesWhatTheRuntimeCannotTrust) {
  struct Case {
    std::vector<int32_t> words;
    StatusCode code;
    const char* message;
  } cases[] = {
      {{1}, StatusCode::kInvalidModel, "need at least 8"},
      {{2, 0}, StatusCode::kUnsupported, "version 2"},
      {{1, 1, 0, 0, 1, 0, 0, 0}, StatusCode::kInvalidModel, "count 1 does not match"},
      {{1, -1}, StatusCode::kInvalidModel, "count -1"},
      {{1, 1, 0, 5, 1, 0, 0, 0, 0, 0}, StatusCode::kInvalidModel, "subgraph 0, op 5, which the model does not have"},
      {{1, 1, 2, 0, 1, 0, 0, 0, 0, 0}, StatusCode::kInvalidModel, "subgraph 2, op 0"},
      {{1, 1, 0, 0, 7, 0, 0, 0, 0, 0}, StatusCode::kUnsupported, "unknown kind 7"},
      {{1, 1, 0, 0, 1, 0, -1, 0, 0, 0}, StatusCode::kInvalidModel, "negative padding"},
      {{1, 1, 0, 0, 2, 1, 0, 0, 0, 0}, StatusCode::kInvalidModel, "in place takes no amounts"},
      {{1, 2, 0, 3, 1, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0}, StatusCode::kInvalidModel, "out of order"},
      {{1, 1, 0, 0, 3, 1, 0, 0, 0, 0}, StatusCode::kInvalidModel, "a stream of 1 ops"},
      {{1, 1, 0, 3, 3, 3, 0, 0, 0, 0}, StatusCode::kInvalidModel, "a stream of 3 ops"},  // ops 3..5 of 5
      {{1, 1, 0, 0, 3, 2, 2, 0, 0, 0}, StatusCode::kInvalidModel, "overlap 2 at 0"},
      {{1, 1, 0, 0, 3, 2, 0, 16, 0, 0}, StatusCode::kInvalidModel, "overlap 0 at 16"},
      {{1, 1, 0, 0, 3, 2, 1, 8, 0, 0}, StatusCode::kInvalidModel, "overlap 1 at 8"},
      {{1, 1, 0, 0, 3, 2, 1, 16, 1, 0}, StatusCode::kInvalidModel, "d and value 0"},
      {{1, 2, 0, 3, 1, 0, 0, 0, 0, 0, 0, 3, 1, 0, 0, 0, 0, 0}, StatusCode::kInvalidModel, "out of order or repeated"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    const auto bytes = Words(c.words);
    Schedule s;
    ErrorText e;
    EXPECT_EQ(DecodeSchedule(bytes.data(), bytes.size(), kOpBase, 2, &s, &e), c.code);
    EXPECT_NE(std::string(e.text).find(c.message), std::string::npos) << e.text;
    EXPECT_FALSE(s.present());
  }
}

}  // namespace
}  // namespace arenaplan::rules
