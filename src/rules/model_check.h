// The structural checks every consumer of a .tflite runs before it follows a single index: the
// host reader (and so inspect, plan, size and export) and the runtime's AllocateTensors give the
// same verdict and the same message for the same model. Messages name the place the way the host
// always has: "subgraph 0, op 3 (CONV_2D): input tensor 57 out of range (40 tensors)".
//
// VerifyModel: the flatbuffers Verifier (depth kMaxFlatbufferDepth, kMaxFlatbufferTables tables;
// a large model's buffer data behind the flatbuffer is not verified as flatbuffer).
// CheckModel, in this order (the first failure wins):
//   counts   at least one subgraph; subgraphs, tensors, operators within limits.h  (kUnsupported
//            beyond a limit, kInvalidModel for no subgraph)
//   buffers  external data (offset > 1) inside the file
//   codes    builtin codes >= 0
//   tensors  type inside the schema's enum, no negative dimension, at most kMaxBufferBytes
//            (kUnsupported), buffer index in range, constant data at least as long as the shape
//            needs (INT4: packed, two per byte)
//   subgraph inputs / outputs in range
//   ops      opcode index, inputs (-1 = omitted), outputs, intermediates in range; IF / WHILE /
//            CALL_ONCE carry their options
//   model    metadata buffers, metadata_buffer[] and signature tensors in range
//   calls    WalkCallTree (rules/call_graph.h): indices, cycles, depth, operator visits
// Everything else is kInvalidModel. O(file size + tensors x rank + operators x arity + visits).
#pragma once

#include <cstddef>
#include <cstdint>

#include "rules/model.h"
#include "rules/status.h"

namespace arenaplan::rules {

// What CheckModel counted (the runtime sizes its tables with it).
struct ModelCounts {
  uint32_t subgraphs = 0;
  uint32_t tensors = 0;    // over all subgraphs
  uint32_t operators = 0;  // over all subgraphs
  uint32_t operator_codes = 0;
  uint32_t operator_visits = 0;  // of the call-tree walk
};

// Fails with kInvalidModel and, for a file that is no flatbuffer, a message that says so and
// shows the first bytes. On success *model points into file.data.
StatusCode VerifyModel(const ModelFile& file, const tfl::Model** model, ErrorText* error);

// The checks above over a verified model. `counts` may be nullptr.
StatusCode CheckModel(const tfl::Model& model, const ModelFile& file, ModelCounts* counts, ErrorText* error);

}  // namespace arenaplan::rules
