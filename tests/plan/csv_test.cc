#include "plan/csv.h"

#include <gtest/gtest.h>

#include "plan/plan_testutil.h"

namespace arenaplan::plan {
namespace {

std::string ErrorOf(const std::string& text) {
  Result<CsvProblem> r = ParseCsv(text, "t.csv");
  EXPECT_FALSE(r.ok()) << text;
  return r.ok() ? std::string() : r.status().message();
}

void ExpectError(const std::string& text, const std::string& fragment) {
  const std::string m = ErrorOf(text);
  EXPECT_NE(m.find(fragment), std::string::npos) << "message: " << m << "\nexpected: " << fragment;
}

TEST(Csv, ReadsMiniMallocExampleAndConvertsUpperToInclusive) {
  // MiniMalloc's README example (capacity 12).
  Result<CsvProblem> r = ParseCsv("id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\nb3,0,9,4\nb4,9,21,4\nb5,0,21,4\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->problem.buffers.size(), 5u);
  EXPECT_EQ(r->ids, (std::vector<std::string>{"b1", "b2", "b3", "b4", "b5"}));
  EXPECT_EQ(r->problem.buffers[0].first, 0);
  EXPECT_EQ(r->problem.buffers[0].last, 2);
  EXPECT_EQ(r->problem.buffers[1].first, 3);  // [0,3) and [3,9) do not share a step
  EXPECT_FALSE(LifetimesOverlap(r->problem.buffers[0], r->problem.buffers[1]));
  EXPECT_EQ(r->problem.buffers[4].last, 20);
  EXPECT_EQ(r->problem.capacity, 0);
}

TEST(Csv, ColumnsInAnyOrderAliasesAndOptionalColumns) {
  Result<CsvProblem> r = ParseCsv(
      "size,offset,begin,buffer,alignment,upper,hint\r\n64,128,1,x,64,5,-1\r\n8,-1,0,y,,2,-1\r\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& b = r->problem.buffers;
  EXPECT_EQ(b[0].size, 64);
  EXPECT_EQ(b[0].fixed_offset, 128);
  EXPECT_EQ(b[0].alignment, 64);
  EXPECT_EQ(b[0].first, 1);
  EXPECT_EQ(b[0].last, 4);
  EXPECT_FALSE(b[1].fixed());
  EXPECT_EQ(b[1].alignment, 1);
  EXPECT_EQ(r->ids[1], "y");
}

TEST(Csv, EndColumnIsInclusive) {
  Result<CsvProblem> r = ParseCsv("id,start,end,size\na,2,2,16\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->problem.buffers[0].first, 2);
  EXPECT_EQ(r->problem.buffers[0].last, 2);
}

TEST(Csv, StopsAtFirstEmptyLine) {
  Result<CsvProblem> r = ParseCsv("id,lower,upper,size\na,0,1,1\n\nthis is not csv\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->problem.buffers.size(), 1u);
}

TEST(Csv, ErrorsNameLineAndColumn) {
  ExpectError("id,lower,upper\n", "t.csv:1: missing required column 'size'");
  ExpectError("id,upper,size\n", "missing required column 'lower'");
  ExpectError("id,lower,size\n", "missing required column 'upper'");
  ExpectError("id,lower,upper,size,colour\n", "t.csv:1: column 5: unknown column 'colour'");
  ExpectError("id,lower,start,upper,size\n", "repeats column 'lower'");
  ExpectError("id,lower,upper,end,size\n", "both 'upper' (exclusive) and 'end' (inclusive)");
  ExpectError("id,lower,upper,size\na,0,1,1\nb,0,x1,1\n", "t.csv:3: column 'upper': 'x1' is not an integer");
  ExpectError("id,lower,upper,size\na,0,1,1.5\n", "t.csv:2: column 'size': '1.5' is not an integer");
  ExpectError("id,lower,upper,size\na,0,1,99999999999999999999\n", "does not fit in 64 bits");
  ExpectError("id,lower,upper,size\na,0,1,-4\n", "t.csv:2: column 'size': size -4 must be > 0");
  ExpectError("id,lower,upper,size\na,0,1,0\n", "size 0 must be > 0");
  ExpectError("id,lower,upper,size\na,5,5,4\n", "t.csv:2: column 'upper': upper 5 must be greater than lower 5");
  ExpectError("id,lower,upper,size\na,0,1,4\nb,0,1,4\na,1,2,4\n",
              "t.csv:4: column 'id': duplicate id 'a' (first on line 2)");
  ExpectError("id,lower,upper,size,alignment,offset\na,0,1,4,8,12\n",
              "t.csv:2: column 'offset': offset 12 is not a multiple of the alignment 8");
  ExpectError("id,lower,upper,size,alignment\na,0,1,4,0\n", "alignment 0 must be > 0");
  ExpectError("id,lower,upper,size,offset\na,0,1,4,-7\n", "offset -7 is negative");
  ExpectError("id,lower,upper,size\na,0,1\n", "t.csv:2: 3 fields but the header has 4");
  ExpectError("id,lower,upper,size\na,0,1,4,5\n", "t.csv:2: 5 fields but the header has 4");
  ExpectError("id,lower,upper,size\n,0,1,4\n", "empty id");
  ExpectError("id,lower,upper,size\na,,1,4\n", "column 'lower': empty value");
  ExpectError("", "empty input");
  ExpectError("\nid,lower,upper,size\n", "t.csv:1: empty header line");
}

TEST(Csv, GapsAreUnsupported) {
  Result<CsvProblem> r = ParseCsv("id,lower,upper,size,gaps\na,0,10,4,2-5\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kUnsupported);
  EXPECT_TRUE(ParseCsv("id,lower,upper,size,gaps\na,0,10,4,\n").ok());
}

TEST(Csv, MissingFileIsAnError) {
  Result<CsvProblem> r = ReadCsvFile("/nonexistent/dir/x.csv");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("/nonexistent/dir/x.csv: cannot open"), std::string::npos);
}

TEST(Csv, WriteRoundTrips) {
  Result<CsvProblem> r = ParseCsv("id,lower,upper,size,alignment\na,0,3,4,4\nb,3,9,4,1\nc,-1,2,8,1\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  Plan plan{{0, 0, 4}, 12};
  const std::string out = WriteCsv(r->ids, r->problem, plan);
  EXPECT_EQ(out, "id,lower,upper,size,alignment,offset\na,0,3,4,4,0\nb,3,9,4,1,0\nc,-1,2,8,1,4\n");
  Result<CsvProblem> back = ParseCsv(out);
  ASSERT_TRUE(back.ok()) << back.status().ToString();  // the offsets come back as fixed offsets
  EXPECT_EQ(back->problem.buffers[2].fixed_offset, 4);
  EXPECT_EQ(back->problem.buffers[1].last, 8);
}

// A plan of buffers above 2^59 bytes reads back, its offsets as fixed ones (found by the CSV
// fuzzer: ValidateProblem counted a fixed buffer twice, at its size and at its end).
TEST(Csv, PlansOfHugeBuffersReadBack) {
  Result<CsvProblem> r = ParseCsv("id,lower,upper,size\na,5,126,6\nb,5,63,666666666666666666\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const Plan plan{{666666666666666666, 0}, 666666666666666672};
  Result<CsvProblem> back = ParseCsv(WriteCsv(r->ids, r->problem, plan));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->problem.buffers[0].fixed_offset, 666666666666666666);
  EXPECT_EQ(back->problem.buffers[1].fixed_offset, 0);
}

TEST(Csv, WriteOmitsAlignmentWhenAllOne) {
  Problem p = testing::MakeProblem({{4, 0, 2}});
  EXPECT_EQ(WriteCsv({"only"}, p, Plan{{0}, 4}), "id,lower,upper,size,offset\nonly,0,3,4,0\n");
}

TEST(Csv, CheckCapacityNamesTheBufferAndLine) {
  Result<CsvProblem> r = ParseCsv("id,lower,upper,size,offset\na,0,1,8,-1\nbig,0,1,20,-1\n");
  ASSERT_TRUE(r.ok());
  r->problem.capacity = 16;
  const Status s = CheckCapacity(r->problem, &r->ids);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), ErrorCode::kInfeasible);
  EXPECT_NE(s.message().find("buffer 1"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("id 'big' (line 3)"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("size 20 exceeds the capacity 16"), std::string::npos) << s.message();
  r->problem.capacity = 20;
  EXPECT_TRUE(CheckCapacity(r->problem, &r->ids).ok());
  r->problem.buffers[0].fixed_offset = 16;  // ends at 24
  EXPECT_FALSE(CheckCapacity(r->problem).ok());
  r->problem.capacity = 0;  // unbounded
  EXPECT_TRUE(CheckCapacity(r->problem).ok());
}

}  // namespace
}  // namespace arenaplan::plan
