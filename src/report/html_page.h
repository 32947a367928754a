// The interactive report's page (src/report/html/), compiled in by src/report/html/embed.cmake:
// kHtml holds the markers @TITLE@, @STYLE@, @DATA@ and @SCRIPT@ that html_report.cc fills.
#pragma once

namespace arenaplan::report::page {

extern const char kHtml[];
extern const char kCss[];
extern const char kScript[];

}  // namespace arenaplan::report::page
