#include "model/graph.h"

#include <limits>
#include <string>

#include "model/model.h"
#include "model/wide_vectors.h"
#include "util/checked_math.h"

namespace arenaplan::model {

namespace {

// Custom options stored past the flatbuffer (large models) are moved into the operator.
Status InlineLargeCustomOptions(const uint8_t* bytes, size_t size, Graph& graph) {
  for (size_t s = 0; s < graph.subgraphs.size(); ++s) {
    auto& ops = graph.subgraphs[s]->operators;
    for (size_t i = 0; i < ops.size(); ++i) {
      tflo::OperatorT& op = *ops[i];
      if (op.large_custom_options_offset <= 1) continue;
      const auto end = CheckedAdd(op.large_custom_options_offset, op.large_custom_options_size);
      if (!end || *end > size) {
        return InvalidArgument("subgraph " + std::to_string(s) + ", op " + std::to_string(i) +
                               ": large custom options lie outside the file");
      }
      const uint8_t* p = bytes + op.large_custom_options_offset;
      op.custom_options.assign(p, p + op.large_custom_options_size);
      op.large_custom_options_offset = 0;
      op.large_custom_options_size = 0;
    }
  }
  return Status::Ok();
}

// A union tag naming a table of the schema, with no table stored, passes the flatbuffer verifier;
// UnPack keeps it as {tag, nullptr}, which the generated Pack and union copy dereference. Every
// reader going through the generated accessors (TFLM's builtin_options_as_X(), ...) sees such a
// tag exactly as NONE, so the graph holds NONE. A tag past the schema (no table type to build) is
// kept: Pack and copy skip it.
template <typename Union, typename Tag>
void DropTagWithoutTable(Union& u, Tag max) {
  if (u.value == nullptr && u.type != Tag::NONE && u.type <= max) u.type = Tag::NONE;
}

void DropTagsWithoutTable(Graph& graph) {
  for (auto& sg : graph.subgraphs) {
    for (auto& t : sg->tensors) {
      if (t->quantization) DropTagWithoutTable(t->quantization->details, tflo::QuantizationDetails::MAX);
      if (!t->sparsity) continue;
      for (auto& dim : t->sparsity->dim_metadata) {
        DropTagWithoutTable(dim->array_segments, tflo::SparseIndexVector::MAX);
        DropTagWithoutTable(dim->array_indices, tflo::SparseIndexVector::MAX);
      }
    }
    for (auto& op : sg->operators) {
      DropTagWithoutTable(op->builtin_options, tflo::BuiltinOptions::MAX);
      DropTagWithoutTable(op->builtin_options_2, tflo::BuiltinOptions2::MAX);
    }
  }
}

}  // namespace

Result<std::unique_ptr<Graph>> ReadGraph(const uint8_t* bytes, size_t size) {
  auto model = ReadModel(bytes, size);
  if (!model.ok()) return model.status();
  // UnPack reads every vector through the generated accessors, which load 8-byte values as such.
  if (auto where = MisalignedWideVector(bytes, flatbuffers::GetRoot<uint8_t>(bytes), tflo::ModelTypeTable())) {
    return InvalidArgument(*where + ": a vector of 8-byte values stored off an 8-byte boundary (no flatbuffers "
                           "builder writes this; reading it is undefined behaviour, so the model cannot be edited)");
  }
  auto graph = std::make_unique<Graph>();
  tflo::GetModel(bytes)->UnPackTo(graph.get());
  DropTagsWithoutTable(*graph);
  for (size_t i = 0; i < graph->buffers.size(); ++i) {
    tflo::BufferT& b = *graph->buffers[i];
    if (b.offset <= 1) continue;             // 0 and 1 mean "no external data"
    const Buffer& view = model->buffers[i];  // range checked by ReadModel
    b.data.assign(view.data, view.data + view.size);
    b.offset = 0;
    b.size = 0;
  }
  ARENAPLAN_RETURN_IF_ERROR(InlineLargeCustomOptions(bytes, size, *graph));
  return graph;
}

Result<std::vector<uint8_t>> WriteGraph(const Graph& graph) {
  uint64_t payload = 0;
  for (const auto& b : graph.buffers) payload += b->data.size();
  // Leave room for the tables: flatbuffers aborts past 2 GiB instead of reporting it.
  if (payload > (uint64_t{1} << 31) - (uint64_t{64} << 20)) {
    return InvalidArgument("model buffers total " + std::to_string(payload) +
                           " bytes: past what one flatbuffer can hold (2 GiB)");
  }
  flatbuffers::FlatBufferBuilder fbb(1 << 16);
  fbb.Finish(tflo::Model::Pack(fbb, &graph), tflo::ModelIdentifier());
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

bool SameGraph(const Graph& a, const Graph& b) {
  auto bytes_a = WriteGraph(a);
  auto bytes_b = WriteGraph(b);
  return bytes_a.ok() && bytes_b.ok() && *bytes_a == *bytes_b;
}

}  // namespace arenaplan::model
