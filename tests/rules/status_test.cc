// The device formatter (rules/status.h): its printf subset, %s escaped, %.Ns cut with "...".
#include "rules/status.h"

#include <gtest/gtest.h>

#include <string>

namespace arenaplan::rules {
namespace {

TEST(FormatTest, FormatterSubset) {
  char buf[64];
  Format(buf, sizeof(buf), "op %d (%s): %u/%x %c%% %lld", -3, "ADD", 42u, 255u, 'z', -9000000000LL);
  EXPECT_STREQ(buf, "op -3 (ADD): 42/ff z% -9000000000");
  char tiny[5];
  EXPECT_EQ(Format(tiny, sizeof(tiny), "%s", "truncated"), 4u);
  EXPECT_STREQ(tiny, "trun");
}

TEST(FormatTest, StringArgumentsAreEscaped) {
  char buf[64];
  Format(buf, sizeof(buf), "tensor (%s)", "evil\x1b[31m\xff");
  EXPECT_STREQ(buf, "tensor (evil\\x1b[31m\\xff)");
}

TEST(FormatTest, PrecisionCutsWholePiecesWithAnEllipsis) {
  char buf[64];
  Format(buf, sizeof(buf), "(%.8s)", "abcdefghijk");
  EXPECT_STREQ(buf, "(abcde...)");
  Format(buf, sizeof(buf), "(%.8s)", "abcdefgh");  // fits exactly: no cut
  EXPECT_STREQ(buf, "(abcdefgh)");
  Format(buf, sizeof(buf), "(%.8s)", "ab\x01\x02");  // "ab\x01\x02" is 10 characters escaped
  EXPECT_STREQ(buf, "(ab...)");
}

TEST(FormatTest, SetErrorPrefixesAndTruncatesToTheBuffer) {
  ErrorText e;
  std::string long_name(400, 'n');
  SetError(&e, "subgraph 0, tensor 1 (%s): too long", long_name.c_str());
  EXPECT_EQ(e.length, ErrorText::kCapacity - 1);
  EXPECT_EQ(std::string(e.text).substr(0, 22), "subgraph 0, tensor 1 (");
}

}  // namespace
}  // namespace arenaplan::rules
