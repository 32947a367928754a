// An owned, zero-filled byte block whose start is 16-aligned: a runtime arena (or an external
// tensor's buffer) on the host. Host only.
// From calloc, not a std::vector: a large calloc takes fresh zero pages from the OS, so only the
// pages the runtime touches are ever faulted in. `optimize` measures each candidate model in a
// 16 MiB arena of which AllocateTensors touches a few KiB; under the sanitizers, zero-filling a
// vector there was 42 % of the optimize corpus test's time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

namespace arenaplan {

class AlignedBytes {
 public:
  static constexpr size_t kAlignment = 16;

  // Throws std::bad_alloc when the block cannot be had, like a vector of that size would.
  explicit AlignedBytes(size_t size)
      : storage_(size > SIZE_MAX - kAlignment ? nullptr : static_cast<uint8_t*>(std::calloc(size + kAlignment, 1))),
        size_(size) {
    if (!storage_) throw std::bad_alloc();
    const uintptr_t p = reinterpret_cast<uintptr_t>(storage_.get());
    data_ = storage_.get() + (kAlignment - p % kAlignment) % kAlignment;
  }

  uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  struct Free {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  std::unique_ptr<uint8_t, Free> storage_;
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace arenaplan
