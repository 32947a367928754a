// Escaping what a model says (rules/text.h): every case worked out by hand from the UTF-8 rules.
#include "rules/text.h"

#include <gtest/gtest.h>

#include <string>

namespace arenaplan::rules {
namespace {

std::string Escape(const std::string& s, uint32_t cap = 1024) {
  std::string out(cap, '\0');
  EscapeText(s.data(), static_cast<uint32_t>(s.size()), out.data(), cap);
  return out.c_str();
}

TEST(EscapeText, PrintableAsciiAndValidUtf8StayAsTheyAre) {
  EXPECT_EQ(Escape("conv2d/BiasAdd;model:0"), "conv2d/BiasAdd;model:0");
  EXPECT_EQ(Escape("caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80"),
            "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80");
  EXPECT_EQ(Escape("a\\x1b"), "a\\x1b");  // a literal backslash is kept: escaping is idempotent
}

TEST(EscapeText, ControlBytesBecomeHex) {
  EXPECT_EQ(Escape("\x1b[2J"), "\\x1b[2J");
  EXPECT_EQ(Escape("bell\a cr\r lf\n tab\t del\x7f"), "bell\\x07 cr\\x0d lf\\x0a tab\\x09 del\\x7f");
  EXPECT_EQ(Escape(std::string("nul\0end", 7)), "nul\\x00end");
  EXPECT_EQ(Escape("\xc2\x9b"
                   "31m"),
            "\\xc2\\x9b31m");                 // U+009B, the 8-bit CSI
  EXPECT_EQ(Escape("\xc2\xa0"), "\xc2\xa0");  // U+00A0, the first code point after C1
}

TEST(EscapeText, InvalidUtf8BecomesHexBytewise) {
  EXPECT_EQ(Escape("\x80"), "\\x80");  // continuation byte without a lead
  EXPECT_EQ(Escape("\xc3"), "\\xc3");  // truncated sequence at the end
  EXPECT_EQ(Escape("\xc3"
                   "A"),
            "\\xc3"
            "A");                                                 // lead byte followed by ASCII
  EXPECT_EQ(Escape("\xc0\xaf"), "\\xc0\\xaf");                    // overlong '/'
  EXPECT_EQ(Escape("\xe0\x80\xaf"), "\\xe0\\x80\\xaf");           // overlong, three bytes
  EXPECT_EQ(Escape("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // a UTF-16 surrogate
  EXPECT_EQ(Escape("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
  EXPECT_EQ(Escape("\xff\xfe"), "\\xff\\xfe");
}

TEST(EscapeText, IsIdempotent) {
  const std::string once = Escape("\x1b]0;title\a \xff x\\y");
  EXPECT_EQ(Escape(once), once);
}

TEST(EscapeText, TruncatesOnlyBetweenPiecesAndReportsTheFullLength) {
  const std::string s =
      "ab\x1b"
      "cd";
  EXPECT_EQ(EscapeText(s.data(), 5, nullptr, 0), 8u);
  EXPECT_EQ(Escape(s, 5), "ab");  // "ab\x1b" would need 6 + NUL: the escape is not split
  EXPECT_EQ(Escape(s, 7), "ab\\x1b");
  const std::string e = "\xc3\xa9\xc3\xa9";
  EXPECT_EQ(Escape(e, 4), "\xc3\xa9");  // nor a UTF-8 sequence
}

}  // namespace
}  // namespace arenaplan::rules
