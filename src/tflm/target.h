// A TFLM build target as data: the sizes and alignments of every struct TFLM puts in the arena
// (docs/tflm-arena.md §1, golden/tflm-arm32 and tflm-cortex-m READMEs). Kernel-specific sizes live
// in the kernel table (kernels.h), indexed by Target::abi.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rules/limits.h"
#include "util/result.h"

namespace arenaplan::tflm {

// The ABI classes the kernel table distinguishes: pointer width and enum size change struct sizes.
enum class Abi : uint8_t {
  kLp64 = 0,            // x86-64 Linux: 8-byte pointers, int-sized enums
  kIlp32 = 1,           // 32-bit ARM Linux: 4-byte pointers, int-sized enums
  kIlp32ShortEnum = 2,  // arm-none-eabi (Cortex-M): 4-byte pointers, -fshort-enums
};
inline constexpr int kAbiCount = 3;

struct StructLayout {
  uint32_t size = 0;
  uint32_t align = 1;
};

struct Target {
  std::string name;         // "tflm-x86_64", "tflm-arm32", "tflm-cortex-m"
  std::string description;  // one line for --help
  Abi abi = Abi::kLp64;
  uint32_t pointer_bytes = 8;
  uint32_t buffer_alignment = rules::kBufferAlignment;  // MicroArenaBufferAlignment()
  StructLayout eval_tensor;                             // TfLiteEvalTensor
  StructLayout node_and_registration;                   // NodeAndRegistration
  StructLayout subgraph_allocations;                    // SubgraphAllocations
  StructLayout persistent_tensor;                       // TfLiteTensor (TF_LITE_STATIC_MEMORY)
  StructLayout affine_quantization;                     // TfLiteAffineQuantization
  StructLayout scratch_handle;                          // ScratchBufferHandle
  uint32_t scratch_request_bytes = 16;                  // internal::ScratchBufferRequest (head array, temp)
  uint32_t allocation_info_bytes = 32;                  // AllocationInfo (temp, during planning)
  uint32_t planner_bytes_per_buffer = 40;               // GreedyMemoryPlanner working memory
  uint32_t size_t_bytes = 8;
  // Objects MicroAllocator::Create puts in the tail first, in order: SingleArenaBufferAllocator,
  // GreedyMemoryPlanner, MicroAllocator.
  std::vector<StructLayout> fixed_objects;
  // The user's MicroResourceVariables::Create comes next (object, then the entry array), each a
  // 16-aligned persistent buffer.
  StructLayout resource_variables;  // MicroResourceVariables {entries*, int capacity, int count}
  StructLayout resource_variable;   // MicroResourceVariable {container*, shared_name*, buffer*,
                                    // size_t bytes, int8 default_value}
  // StartModelAllocation (AllocateTensors) then allocates the MicroBuiltinDataAllocator.
  StructLayout builtin_data_allocator;
};

const std::vector<Target>& Targets();
// "tflm-cortex-m" when the name is empty.
inline constexpr const char* kDefaultTarget = "tflm-cortex-m";
Result<const Target*> FindTarget(const std::string& name);

}  // namespace arenaplan::tflm
