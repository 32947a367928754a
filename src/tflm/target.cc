#include "tflm/target.h"

namespace arenaplan::tflm {

const std::vector<Target>& Targets() {
  // x86-64 sizes: docs/tflm-arena.md §1 (measured). 32-bit: golden/tflm-arm32/README.md; the
  // short-enum build differs only where an enum sits in a struct (TfLiteTensor 40 -> 32).
  static const std::vector<Target> kTargets = {
      {"tflm-x86_64",
       "x86-64 Linux host (LP64, int enums), TFLM's default Makefile build",
       Abi::kLp64,
       8,
       16,
       {24, 8},
       {64, 8},
       {16, 8},
       {64, 8},
       {24, 8},
       {8, 8},
       16,
       32,
       40,
       8,
       {{72, 8}, {72, 8}, {72, 8}},
       {16, 8},
       {40, 8},
       {16, 8}},
      {"tflm-arm32",
       "32-bit ARM Linux (arm-linux-gnueabihf: 4-byte pointers, int enums)",
       Abi::kIlp32,
       4,
       16,
       {12, 4},
       {32, 4},
       {8, 4},
       {40, 4},
       {12, 4},
       {4, 4},
       12,
       24,
       40,
       4,
       {{36, 4}, {44, 4}, {36, 4}},
       {12, 4},
       {20, 4},
       {8, 4}},
      {"tflm-cortex-m",
       "Cortex-M bare metal (arm-none-eabi: 4-byte pointers, short enums)",
       Abi::kIlp32ShortEnum,
       4,
       16,
       {12, 4},
       {32, 4},
       {8, 4},
       {32, 4},
       {12, 4},
       {4, 4},
       12,
       24,
       40,
       4,
       {{36, 4}, {44, 4}, {36, 4}},
       {12, 4},
       {20, 4},
       {8, 4}},
  };
  return kTargets;
}

Result<const Target*> FindTarget(const std::string& name) {
  const std::string wanted = name.empty() ? kDefaultTarget : name;
  std::string known;
  for (const Target& t : Targets()) {
    if (t.name == wanted) return &t;
    known += (known.empty() ? "" : ", ") + t.name;
  }
  return InvalidArgument("unknown target '" + wanted + "' (known: " + known + ")");
}

}  // namespace arenaplan::tflm
