// `arenaplan report` and `solve --report` end to end on models the project writes: one
// self-contained page whose embedded figures are the very JSON `plan` prints, names that cannot
// break out of the page, the SVG timeline, the side-by-side pair, and bad input.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/cli_testutil.h"

namespace arenaplan::testing {
namespace {

using ReportTest = DemoModelTest;

// The JSON document embedded in a report page.
nlohmann::json EmbeddedData(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"arenaplan-data\">";
  const size_t a = html.find(open);
  if (a == std::string::npos) return nullptr;
  const size_t b = html.find("</script>", a);
  return nlohmann::json::parse(html.substr(a + open.size(), b - a - open.size()));
}

nlohmann::json WithoutTime(nlohmann::json plan) {
  plan.erase("seconds");  // the one field two runs do not share
  return plan;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST_F(ReportTest, PageEmbedsThePlanJsonOfEachPlannerAndNeedsNoNetwork) {
  const std::string page = dir_ + "/r.html";
  const CliRun r = RunCli({"report", demo_, "-o", page, "--planner", "tflm-greedy,best-fit", "--planner", "best"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("wrote " + page), std::string::npos);
  const std::string html = ReadText(page);
  const nlohmann::json data = EmbeddedData(html);
  ASSERT_EQ(data["models"].size(), 1u);
  const auto& plans = data["models"][0]["plans"];
  ASSERT_EQ(plans.size(), 3u);
  const char* planners[] = {"tflm-greedy", "best-fit", "best"};
  for (size_t k = 0; k < 3; ++k) {
    const CliRun p = RunCli({"plan", demo_, "--planner", planners[k], "--format", "json"});
    ASSERT_EQ(p.exit_code, 0) << p.err;
    EXPECT_EQ(WithoutTime(plans[k]), WithoutTime(nlohmann::json::parse(p.out))) << planners[k];
  }
  // The op list: the demo's operators with their tensors.
  EXPECT_FALSE(data["models"][0]["graph"]["subgraphs"][0]["operators"].empty());
  EXPECT_TRUE(data["models"][0]["size"].is_null());
  // Self-contained: no external script, style, font or image, and nothing fetched.
  for (const char* external :
       {"<script src", "<link", "@import", "url(", "http://", "https://", "fetch(", "XMLHttpRequest"}) {
    EXPECT_EQ(html.find(external), std::string::npos) << external;
  }
  EXPECT_EQ(Count(html, "<script"), 2u);  // the data and the page's code
}

TEST_F(ReportTest, TargetAddsTflmsArenaAsSizePrintsIt) {
  const std::string page = dir_ + "/r.html";
  ASSERT_EQ(RunCli({"report", demo_, "-o", page, "--target", "tflm-cortex-m"}).exit_code, 0);
  const nlohmann::json size = EmbeddedData(ReadText(page))["models"][0]["size"];
  const CliRun s = RunCli({"size", demo_, "--target", "tflm-cortex-m", "--format", "json"});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_EQ(size, nlohmann::json::parse(s.out));
}

TEST_F(ReportTest, NamesCannotBreakOutOfThePage) {
  const std::string evil = "</script><script>alert(1)</script><!--";
  const std::string m = dir_ + "/evil.tflite", page = dir_ + "/r.html";
  WriteBytes(m, AddModelWithOutputNamed(evil));
  ASSERT_EQ(RunCli({"report", m, "-o", page}).exit_code, 0);
  const std::string html = ReadText(page);
  EXPECT_EQ(html.find(evil), std::string::npos);
  EXPECT_EQ(Count(html, "</script>"), 2u);
  const nlohmann::json data = EmbeddedData(html);
  const auto& bufs = data["models"][0]["plans"][0]["buffers"];
  bool found = false;
  for (const auto& b : bufs) found |= b["name"] == evil;
  EXPECT_TRUE(found) << bufs.dump();
}

TEST_F(ReportTest, JsonOutputsSurviveNamesThatAreNotUtf8) {
  const std::string m = dir_ + "/latin1.tflite";
  WriteBytes(m, AddModelWithOutputNamed("caf\xe9 \xff"));  // model bytes need not be UTF-8
  for (const std::vector<std::string>& args : {std::vector<std::string>{"plan", m, "--format", "json"},
                                               {"inspect", m, "--format", "json"},
                                               {"size", m, "--format", "json"},
                                               {"run", m, "--format", "json", "--dump-tensors", dir_ + "/d"},
                                               {"report", m, "-o", dir_ + "/r.html"}}) {
    const CliRun r = RunCli(args);
    ASSERT_EQ(r.exit_code, 0) << args[0] << ": " << r.err;
    if (args[0] == "report") continue;
    EXPECT_TRUE(nlohmann::json::accept(r.out)) << args[0];
  }
  const auto plan = nlohmann::json::parse(RunCli({"plan", m, "--format", "json"}).out);
  EXPECT_EQ(plan["buffers"][1]["name"], "caf\xef\xbf\xbd \xef\xbf\xbd");  // U+FFFD for each bad byte
  EXPECT_TRUE(EmbeddedData(ReadText(dir_ + "/r.html")).is_object());
}

TEST_F(ReportTest, TwoModelsSideBySide) {
  const std::string page = dir_ + "/r.html";
  ASSERT_EQ(RunCli({"report", demo_, demo_, "-o", page, "--planner", "best"}).exit_code, 0);
  const nlohmann::json data = EmbeddedData(ReadText(page));
  ASSERT_EQ(data["models"].size(), 2u);
  EXPECT_EQ(data["models"][0]["role"], "original");
  EXPECT_EQ(data["models"][1]["role"], "optimized");
}

TEST_F(ReportTest, SvgHasOneRectanglePerBufferAndThePeak) {
  const std::string svg = dir_ + "/t.svg";
  ASSERT_EQ(RunCli({"report", demo_, "-o", svg, "--format", "svg", "--planner", "tflm-greedy"}).exit_code, 0);
  const auto plan = nlohmann::json::parse(RunCli({"plan", demo_, "--planner", "tflm-greedy", "--format", "json"}).out);
  const std::string text = ReadText(svg);
  EXPECT_EQ(text.rfind("<svg ", 0), 0u);
  EXPECT_EQ(Count(text, "<rect "), plan["buffers"].size());
  EXPECT_NE(text.find("peak: step " + std::to_string(plan["peak"]["step"].get<int64_t>()) + ", " +
                      std::to_string(plan["peak"]["live_bytes"].get<int64_t>()) + " B"),
            std::string::npos);
}

TEST_F(ReportTest, SolveWritesTheReportOfItsJson) {
  const std::string csv = dir_ + "/p.csv", page = dir_ + "/s.html";
  // Hand-worked: a [0,2) 4 B and b [1,3) 4 B overlap at step 1; c [2,3) 8 B reuses a's bytes at step 2.
  WriteText(csv, "id,lower,upper,size\na,0,2,4\nb,1,3,4\nc,2,3,8\n");
  const CliRun r = RunCli({"solve", csv, "--format", "json", "--report", page});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["peak"]["step"], 2);
  EXPECT_EQ(doc["peak"]["live_bytes"], 12);
  EXPECT_EQ(WithoutTime(EmbeddedData(ReadText(page))["models"][0]["plans"][0]), WithoutTime(doc));
}

TEST_F(ReportTest, BadInputIsOneLineAndExitTwo) {
  CliRun r = RunCli({"report", dir_ + "/missing.tflite", "-o", dir_ + "/r.html"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "arenaplan report: cannot open '" + dir_ + "/missing.tflite'\n");
  r = RunCli({"report", demo_, "-o", dir_ + "/no/such/dir/r.html"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("cannot open"), std::string::npos) << r.err;
  EXPECT_EQ(RunCli({"report", demo_, "-o", dir_ + "/r.html", "--planner", "nope"}).exit_code, 2);
  EXPECT_EQ(RunCli({"report", demo_}).exit_code, 2);  // -o is required
}

}  // namespace
}  // namespace arenaplan::testing
