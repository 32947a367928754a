#include "cli/runtime_header_testutil.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <regex>

#include "runtime/interpreter.h"
#include "runtime/op_resolver.h"
#include "util/aligned_bytes.h"

namespace arenaplan::testing {

int64_t HeaderMacro(const std::string& text, const std::string& name) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex("#define \\w+_" + name + " (\\d+)u\\b"))) return -1;
  return std::stoll(m[1]);
}

std::vector<int64_t> HeaderArray(const std::string& text, const std::string& name) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex("static const \\w+ \\w+_" + name + "\\[(\\d+)\\] = \\{([^}]*)\\};"))) {
    return {};
  }
  std::vector<int64_t> out;
  const std::string body = m[2];
  const std::regex number("-?\\d+");
  for (auto it = std::sregex_iterator(body.begin(), body.end(), number); it != std::sregex_iterator(); ++it) {
    out.push_back(std::stoll(it->str()));
  }
  EXPECT_EQ(out.size(), std::stoull(m[1])) << name;
  return out;
}

RuntimeHeader ParseRuntimeHeader(const std::string& text) {
  RuntimeHeader h;
  h.arena_bytes = HeaderMacro(text, "ARENA_BYTES");
  h.head_bytes = HeaderMacro(text, "HEAD_BYTES");
  h.plan_count = HeaderMacro(text, "PLAN_COUNT");
  h.region_count = HeaderMacro(text, "REGION_COUNT");
  h.external_io = HeaderMacro(text, "EXTERNAL_IO");
  h.keep_count = HeaderMacro(text, "KEEP_COUNT");
  h.offsets = HeaderArray(text, "plan_offsets");
  h.regions = HeaderArray(text, "plan_regions");
  h.region_bytes = HeaderArray(text, "region_bytes");
  h.keep = HeaderArray(text, "keep_tensors");
  h.keep.resize(h.keep_count < 0 ? 0 : static_cast<size_t>(h.keep_count));  // C has no empty arrays
  return h;
}

HeaderRun RunWithHeader(const std::vector<uint8_t>& model, const RuntimeHeader& h,
                        const std::vector<std::vector<uint8_t>>& inputs, int64_t arena_bytes,
                        const rt::OpResolver* kernels) {
  HeaderRun r;
  std::vector<int32_t> offsets(h.offsets.begin(), h.offsets.end());
  std::vector<uint8_t> regions(h.regions.begin(), h.regions.end());
  std::vector<uint32_t> keep(h.keep.begin(), h.keep.end());
  rt::CompiledPlan plan{offsets.data(), static_cast<uint32_t>(offsets.size()), static_cast<uint32_t>(h.head_bytes),
                        regions.empty() ? nullptr : regions.data()};
  std::vector<std::unique_ptr<AlignedBytes>> memories;
  std::vector<rt::RegionArena> arenas;
  for (size_t g = 1; g < h.region_bytes.size(); ++g) {
    memories.push_back(std::make_unique<AlignedBytes>(static_cast<size_t>(h.region_bytes[g])));
    arenas.push_back(rt::RegionArena{memories.back()->data(), static_cast<uint32_t>(h.region_bytes[g])});
  }
  rt::InterpreterOptions options;
  options.compiled_plan = &plan;
  options.regions = arenas.data();
  options.num_regions = static_cast<uint32_t>(arenas.size());
  options.external_io = static_cast<rt::ExternalIo>(h.external_io);
  options.keep_tensors = keep.data();
  options.num_keep_tensors = static_cast<uint32_t>(keep.size());
  const size_t bytes = static_cast<size_t>(arena_bytes < 0 ? h.arena_bytes : arena_bytes);
  const AlignedBytes arena(bytes);
  rt::Interpreter interp(model.data(), model.size(), kernels ? *kernels : rt::AllOpsResolver(), arena.data(), bytes,
                         options);
  r.allocate = interp.AllocateTensors();
  if (r.allocate != rt::StatusCode::kOk) {
    r.error = interp.error_message();
    return r;
  }
  const auto io = static_cast<uint8_t>(h.external_io);
  std::vector<std::unique_ptr<AlignedBytes>> bound;
  for (uint32_t k = 0; k < interp.inputs_size(); ++k) {
    const uint32_t n = interp.input(k).bytes;
    if (io & 1) {
      bound.push_back(std::make_unique<AlignedBytes>(n));
      EXPECT_EQ(interp.BindInput(k, bound.back()->data(), n), rt::StatusCode::kOk) << interp.error_message();
    }
    void* data = interp.input(k).data;
    if (data == nullptr) continue;
    std::memset(data, 0, n);
    if (k < inputs.size()) {
      EXPECT_EQ(inputs[k].size(), n) << "input " << k;
      std::memcpy(data, inputs[k].data(), std::min<size_t>(n, inputs[k].size()));
    }
  }
  for (uint32_t k = 0; (io & 2) && k < interp.outputs_size(); ++k) {
    const uint32_t n = interp.output(k).bytes;
    bound.push_back(std::make_unique<AlignedBytes>(n));
    EXPECT_EQ(interp.BindOutput(k, bound.back()->data(), n), rt::StatusCode::kOk) << interp.error_message();
  }
  r.invoke = interp.Invoke();
  if (r.invoke != rt::StatusCode::kOk) r.error = interp.error_message();
  for (uint32_t k = 0; k < interp.outputs_size(); ++k) {
    const rt::TensorView out = interp.output(k);
    const auto* p = static_cast<const uint8_t*>(out.data);
    r.outputs.emplace_back(p, p + out.bytes);
  }
  return r;
}

}  // namespace arenaplan::testing
