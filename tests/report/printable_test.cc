// report/printable.h: model strings on their way to a terminal or a JSON consumer.
#include "report/printable.h"

#include <gtest/gtest.h>

namespace arenaplan::report {
namespace {

TEST(Printable, EscapesAndCutsAtWholePieces) {
  EXPECT_EQ(Printable("conv\x1b[31m"), "conv\\x1b[31m");
  EXPECT_EQ(Printable(std::string("a\0b", 3)), "a\\x00b");  // embedded NUL: host strings keep it
  EXPECT_EQ(Printable("abcdefgh", 8), "abcdefgh");
  EXPECT_EQ(Printable("abcdefghi", 8), "abcde...");
  EXPECT_EQ(Printable("ab\x1b"
                      "cdefgh",
                      8),
            "ab...");                                                                  // never half an escape
  EXPECT_EQ(Printable("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 7), "\xc3\xa9\xc3\xa9...");  // nor half a character
  EXPECT_EQ(Printable(Printable("x\x07\xff")), Printable("x\x07\xff"));                // idempotent
}

TEST(JsonText, InvalidUtf8BecomesReplacementCharacters) {
  nlohmann::json j;
  j["name"] = std::string("ok\x1b\xff");
  const std::string text = JsonText(j);
  EXPECT_EQ(nlohmann::json::parse(text)["name"], "ok\x1b\xef\xbf\xbd");
  EXPECT_NE(text.find("\\u001b"), std::string::npos);
}

}  // namespace
}  // namespace arenaplan::report
