// Unit tests: targets, SHA-256 vectors, kernel-table lookups and formulas.
#include <gtest/gtest.h>

#include <string>

#include "tflm/kernels.h"
#include "tflm/sha256.h"
#include "tflm/target.h"

namespace arenaplan::tflm {
namespace {

TEST(Targets, FindByNameAndDefault) {
  auto def = FindTarget("");
  ASSERT_TRUE(def.ok());
  EXPECT_EQ((*def)->name, "tflm-cortex-m");
  auto bad = FindTarget("tflm-riscv");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("tflm-arm32"), std::string::npos);
}

TEST(Targets, FixedObjectsMatchDocumentedTotals) {
  // x86-64 GetDefaultTailUsage(false) minus one SubgraphAllocations = 232; arm32 fixed 132 - 8 = 124.
  auto sum = [](const Target& t) {
    uint32_t s = 0;
    for (const auto& o : t.fixed_objects) s += o.size;
    return s + t.builtin_data_allocator.size + t.subgraph_allocations.size;
  };
  EXPECT_EQ(sum(**FindTarget("tflm-x86_64")), 248u);
  EXPECT_EQ(sum(**FindTarget("tflm-arm32")), 132u);
  EXPECT_EQ((*FindTarget("tflm-cortex-m"))->persistent_tensor.size, 32u);
  EXPECT_EQ((*FindTarget("tflm-arm32"))->persistent_tensor.size, 40u);
}

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(Sha256Hex(nullptr, 0), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  const std::string abc = "abc";
  EXPECT_EQ(Sha256Hex(reinterpret_cast<const uint8_t*>(abc.data()), abc.size()),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const std::string two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  EXPECT_EQ(Sha256Hex(reinterpret_cast<const uint8_t*>(two.data()), two.size()),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(KernelTable, RowsAreUniqueAndRegistered) {
  const auto& ops = TflmRegisteredOps();
  for (const KernelEntry& e : KernelTable()) {
    EXPECT_EQ(FindKernelEntry(e.op), &e) << e.op;
    const bool registered = std::find(ops.begin(), ops.end(), e.op) != ops.end();
    EXPECT_TRUE(registered || std::string(e.op) == "CUSTOM:ethos-u") << e.op;
  }
  EXPECT_EQ(FindKernelEntry("TOPK_V2"), nullptr);
  EXPECT_EQ(FindKernelEntry("POW"), nullptr);
}

TEST(KernelTable, ShortEnumsShrinkOptionStructs) {
  const KernelEntry* fc = FindKernelEntry("FULLY_CONNECTED");
  ASSERT_NE(fc, nullptr);
  EXPECT_EQ(fc->options_size[0], 16);  // activation + weights_format enums, 2 bools, bias type enum
  EXPECT_EQ(fc->options_size[2], 5);   // all one byte with -fshort-enums
  const KernelEntry* conv = FindKernelEntry("CONV_2D");
  ASSERT_NE(conv, nullptr);
  EXPECT_GT(conv->init_bytes[0], conv->init_bytes[1]);  // OpDataConv holds pointers
}

}  // namespace
}  // namespace arenaplan::tflm
