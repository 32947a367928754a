// The runtime never touches the heap: in this binary malloc/calloc/realloc and operator new abort
// while a guard is up, and every corpus model that the runtime supports is constructed, allocated
// and invoked under the guard (model bytes, arena, inputs and golden outputs are loaded before).
// Sanitizer builds own malloc and operator new, so this file is compiled out there; scripts/test.sh
// runs it from a plain (unsanitized) build instead.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "golden_testutil.h"
#include "runtime/interpreter.h"
#include "runtime/shared_arena.h"
#include "support/shared_dir.h"
#include "util/aligned_bytes.h"

#if defined(__SANITIZE_ADDRESS__)
#define ARENAPLAN_NO_MALLOC_HOOK 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENAPLAN_NO_MALLOC_HOOK 1
#endif
#endif

#ifndef ARENAPLAN_NO_MALLOC_HOOK

namespace {
std::atomic<bool> g_heap_forbidden{false};
void Forbidden(const char* what) {
  static const char kMsg[] = "heap use while forbidden: ";
  fwrite(kMsg, 1, sizeof(kMsg) - 1, stderr);
  fwrite(what, 1, strlen(what), stderr);
  fwrite("\n", 1, 1, stderr);
  abort();
}
}  // namespace

extern "C" {
void* __libc_malloc(size_t);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void* malloc(size_t n) {
  if (g_heap_forbidden.load(std::memory_order_relaxed)) Forbidden("malloc");
  return __libc_malloc(n);
}
void* calloc(size_t n, size_t m) {
  if (g_heap_forbidden.load(std::memory_order_relaxed)) Forbidden("calloc");
  return __libc_calloc(n, m);
}
void* realloc(void* p, size_t n) {
  if (g_heap_forbidden.load(std::memory_order_relaxed)) Forbidden("realloc");
  return __libc_realloc(p, n);
}
}

// These replacements pair malloc with free themselves; GCC's mismatch warning does not see that.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(size_t n) {
  if (g_heap_forbidden.load(std::memory_order_relaxed)) Forbidden("operator new");
  void* p = std::malloc(n ? n : 1);
  if (p == nullptr) std::abort();
  return p;
}
void* operator new[](size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
#pragma GCC diagnostic pop

namespace arenaplan::testing {
namespace {

struct HeapGuard {
  HeapGuard() { g_heap_forbidden = true; }
  ~HeapGuard() { g_heap_forbidden = false; }
};

TEST(NoHeapTest, GuardCatchesAllocation) {
  EXPECT_DEATH(
      {
        HeapGuard guard;
        volatile void* p = std::malloc(16);
        (void)p;
      },
      "heap use while forbidden");
}

TEST(NoHeapTest, CorpusModelsRunWithoutHeap) {
  REQUIRE_SHARED();
  uint32_t ran = 0;
  for (const GoldenModel& m : GoldenIoModels()) {
    std::vector<uint8_t> bytes = ReadFileBytes(ModelPath(m));
    // Pre-run with the heap allowed, to learn whether the runtime supports the model at all.
    auto probe = MakeRun(bytes, 64u << 20);
    if (probe->interp->AllocateTensors() != rt::StatusCode::kOk) continue;
    const uint32_t arena_bytes = probe->interp->memory_record().min_arena_bytes;
    std::vector<std::vector<uint8_t>> inputs, golden;
    for (uint32_t k = 0; k < probe->interp->inputs_size(); ++k)
      inputs.push_back(ReadFileBytes(IoPath(m, "in" + std::to_string(k))));
    for (uint32_t k = 0; k < probe->interp->outputs_size(); ++k)
      golden.push_back(ReadFileBytes(IoPath(m, "out" + std::to_string(k))));
    const AlignedBytes storage(arena_bytes);  // before the guard: calloc aborts under it
    uint8_t* arena = storage.data();
    rt::StatusCode alloc = rt::StatusCode::kOk, invoke = rt::StatusCode::kOk;
    bool same = true;
    {
      HeapGuard guard;
      rt::Interpreter interp(bytes.data(), bytes.size(), rt::AllOpsResolver(), arena, arena_bytes);
      alloc = interp.AllocateTensors();
      if (alloc == rt::StatusCode::kOk) {
        for (uint32_t k = 0; k < interp.inputs_size() && k < inputs.size(); ++k) {
          std::memcpy(interp.input(k).data, inputs[k].data(),
                      std::min<size_t>(inputs[k].size(), interp.input(k).bytes));
        }
        invoke = interp.Invoke();
        for (uint32_t k = 0; k < interp.outputs_size() && k < golden.size(); ++k) {
          const rt::TensorView o = interp.output(k);
          same = same && o.bytes == golden[k].size() && std::memcmp(o.data, golden[k].data(), o.bytes) == 0;
        }
      }
    }
    EXPECT_EQ(alloc, rt::StatusCode::kOk) << m.model;
    EXPECT_EQ(invoke, rt::StatusCode::kOk) << m.model;
    (void)same;  // bit-exactness is the job of runtime_corpus_test (it allows 1e-6 for libm ops)
    ++ran;
  }
  std::printf("ran %u models with the heap forbidden\n", ran);
  EXPECT_GT(ran, 0u);
}

// Two models in one shared arena (runtime/shared_arena.h), allocated and run in turn, heap forbidden.
TEST(NoHeapTest, SharedArenaRunsWithoutHeap) {
  REQUIRE_SHARED();
  const std::vector<uint8_t> a = ReadFileBytes(*SharedDir() + "/models/tflm_micro_speech_int8.tflite");
  const std::vector<uint8_t> b = ReadFileBytes(*SharedDir() + "/models/tflm_hello_world_int8.tflite");
  const AlignedBytes storage(1u << 20);
  uint8_t* arena = storage.data();
  rt::StatusCode s[4] = {};
  {
    HeapGuard guard;
    rt::SharedArena shared;
    rt::ErrorText error;
    (void)rt::SharedArenaInit(&shared, arena, 1u << 20, &error);
    rt::Interpreter ia(a.data(), a.size(), rt::AllOpsResolver(), &shared);
    rt::Interpreter ib(b.data(), b.size(), rt::AllOpsResolver(), &shared);
    s[0] = ia.AllocateTensors();
    s[1] = ib.AllocateTensors();
    if (s[0] == rt::StatusCode::kOk && s[1] == rt::StatusCode::kOk) {
      s[2] = ia.Invoke();
      s[3] = ib.Invoke();
    }
  }
  for (const rt::StatusCode c : s) EXPECT_EQ(c, rt::StatusCode::kOk);
}

}  // namespace
}  // namespace arenaplan::testing

#endif  // ARENAPLAN_NO_MALLOC_HOOK
