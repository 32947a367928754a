#include "cli/run_io.h"

#include <cstdio>

#include "model/model.h"
#include "runtime/test_inputs.h"

namespace arenaplan::cli {

Status ResolveRunIo(const RunArgs& a, const std::vector<uint8_t>& bytes, RunIo* io) {
  if (!a.io.any()) return Status::Ok();
  auto parsed = model::ReadModel(bytes.data(), bytes.size());
  if (!parsed.ok()) return Status(parsed.status().code(), a.models[0] + ": " + parsed.status().message());
  auto selection = ResolveIo(*parsed, a.io);
  if (!selection.ok()) return Status(selection.status().code(), a.models[0] + ": " + selection.status().message());
  io->selection = std::move(selection).value();
  return Status::Ok();
}

rt::StatusCode BindOwnBuffers(rt::Interpreter& interp, RunIo* io, std::vector<uint32_t>* externals) {
  const auto bits = static_cast<uint8_t>(io->selection.external_io);
  for (int side = 0; side < 2; ++side) {
    if ((bits & (side == 0 ? 1 : 2)) == 0) continue;
    const uint32_t n = side == 0 ? interp.inputs_size() : interp.outputs_size();
    for (uint32_t k = 0; k < n; ++k) {
      const rt::TensorView v = side == 0 ? interp.input(k) : interp.output(k);
      if (v.data != nullptr || v.bytes == 0) continue;  // planned, constant, or bound already
      io->buffers.push_back(std::make_unique<AlignedBytes>(v.bytes));
      AlignedBytes& b = *io->buffers.back();
      const rt::StatusCode s = side == 0 ? interp.BindInput(k, b.data(), b.size())
                                         : interp.BindOutput(k, b.data(), b.size());
      if (s != rt::StatusCode::kOk) return s;
      for (uint32_t t = 0; t < interp.tensors_size(); ++t) {
        if (interp.tensor(t).data == b.data()) externals->push_back(t);
      }
    }
  }
  return rt::StatusCode::kOk;
}

nlohmann::json KeptJson(const rt::Interpreter& interp, const RunIo& io) {
  nlohmann::json out = nlohmann::json::array();
  for (uint32_t t : io.selection.keep) {
    const rt::TensorView v = interp.tensor(t);
    char hex[17];
    std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(rt::Fnv1a64(v.data, v.bytes)));
    out.push_back({{"tensor", t}, {"bytes", v.bytes}, {"fnv1a64", hex}});
  }
  return out;
}

void PrintKept(const nlohmann::json& kept) {
  for (const auto& k : kept) {
    std::printf("kept tensor %u: %u bytes fnv1a64 %s (valid after Invoke)\n", k["tensor"].get<uint32_t>(),
                k["bytes"].get<uint32_t>(), k["fnv1a64"].get<std::string>().c_str());
  }
}

}  // namespace arenaplan::cli
