// An editable graph: the whole model as flatc's object API builds it from the complete schema
// (tflo::ModelT: operator codes, subgraphs with tensors and operators and their full builtin /
// builtin_2 / custom options, buffers with their data, metadata, signature defs, debug indices,
// ...). Nothing is re-declared here: the library's generated types are the graph, its UnPack reads
// every field and its Pack writes every field back. Host only (std::vector, std::string).
//
// ReadGraph runs the verified reader (ReadModel) first, so a graph only ever holds a model whose
// indices and sizes were checked. Buffers and custom options stored outside the flatbuffer (models
// past 2 GB: offset / size from the file start) are read into the graph inline; WriteGraph writes
// everything inline, with buffer data 16-byte aligned (the schema's force_align), so a written
// graph reads back the same (SameGraph) as the graph written. A union tag stored without its
// table (options, quantization details, sparse index vectors) is read as NONE: the generated
// accessors, and so TFLM, see both alike, and the object API cannot hold a tag without a table.
// A vector of 8-byte values stored off an 8-byte boundary (which the flatbuffers Verifier lets
// through and UnPack would load misaligned) is an InvalidArgument naming its path.
// O(model size) both ways.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "schema/tflite_object_api_generated.h"
#include "util/result.h"

namespace arenaplan::model {

using Graph = tflo::ModelT;

Result<std::unique_ptr<Graph>> ReadGraph(const uint8_t* bytes, size_t size);

// The .tflite bytes of `graph` (identifier "TFL3"). InvalidArgument when the result would pass
// the flatbuffer 2 GiB limit.
Result<std::vector<uint8_t>> WriteGraph(const Graph& graph);

// Whether `a` and `b` hold the same fields, floats compared bit for bit: their WriteGraph bytes
// are equal (Pack is deterministic and writes every field the object API has). The generated ==
// compares floats as numbers, so a graph holding a NaN (quantization scale / min / max, options)
// never equals itself and -0.0 equals 0.0; what a round trip must keep is the bits. False when
// either cannot be written. O(model size).
bool SameGraph(const Graph& a, const Graph& b);

}  // namespace arenaplan::model
