// TFLite_Detection_PostProcess (custom op; SSD box decoding + non-max suppression), as TFLM
// (detection_postprocess.cc): float32 box encodings [1, boxes, >= 4], class scores
// [1, boxes, classes (+ background)], anchors [boxes, 4]; outputs boxes, classes, scores and the
// detection count, all float32.
//   decode: centre/size encodings over the anchors in double (y / y_scale * h_a + y_a, ...,
//           half sizes 0.5 * exp(h / h_scale) * h_a), stored as float corners;
//   fast NMS (default): each box keeps its top max_classes_per_detection classes; single-class NMS
//           over each box's best score; outputs per selected box its top classes;
//   regular NMS (use_regular_nms): NMS per class (detections_per_class each), merged by score.
// Single-class NMS: scores >= threshold, sorted descending (stable), greedily kept unless the IoU
// with a kept box exceeds the threshold. Partial sorts order ties by index, as TFLM. Quantized
// inputs pass Prepare and fail at eval (TFLM decodes float only). The 11 scratch buffers are
// TFLM's, so the memory plan is TFLM's too: the fast path's writes past its outputs (several
// classes per anchor) land where they land on TFLM. O(boxes^2) per class.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/kernels/signal_util.h"

namespace arenaplan::rt {

namespace {

struct Box {
  float ymin, xmin, ymax, xmax;
};

enum Scratch {
  kActive,
  kDecoded,
  kScores,
  kScoreBuffer,
  kKeepScores,
  kScoresAfterNms,
  kSortedValues,
  kKeepIndices,
  kSortedIndices,
  kBuffer,
  kSelected,
  kNumScratch
};

struct DetectionData {
  int32_t max_detections, max_classes_per_detection, detections_per_class, num_classes;
  float score_threshold, iou_threshold;
  bool regular_nms;
  float y_scale, x_scale, h_scale, w_scale;
  int32_t scratch[kNumScratch];
};

StatusCode ReadOptions(KernelContext& ctx, DetectionData* d) {
  const tfl::Operator* op = ctx.op();
  FlexMap m;
  if (op == nullptr || op->custom_options() == nullptr ||
      !FlexParseMap(op->custom_options()->data(), op->custom_options()->size(), &m)) {
    return ctx.Fail(StatusCode::kInvalidModel, "custom_options are not a FlexBuffer map");
  }
  int64_t v = 0;
  if (!FlexGetInt(m, "max_detections", &v) || v < 0 || v > (1 << 20))
    return ctx.Fail(StatusCode::kInvalidModel, "max_detections missing or invalid");
  d->max_detections = static_cast<int32_t>(v);
  if (!FlexGetInt(m, "max_classes_per_detection", &v) || v > (1 << 20))
    return ctx.Fail(StatusCode::kInvalidModel, "max_classes_per_detection missing");
  d->max_classes_per_detection = static_cast<int32_t>(v);
  d->detections_per_class = FlexGetInt(m, "detections_per_class", &v) ? static_cast<int32_t>(v) : 100;
  d->regular_nms = FlexGetInt(m, "use_regular_nms", &v) && v != 0;
  if (!FlexGetInt(m, "num_classes", &v) || v < 0 || v > (1 << 20))
    return ctx.Fail(StatusCode::kInvalidModel, "num_classes missing or invalid");
  d->num_classes = static_cast<int32_t>(v);
  const bool floats = FlexGetFloat(m, "nms_score_threshold", &d->score_threshold) &&
                      FlexGetFloat(m, "nms_iou_threshold", &d->iou_threshold) &&
                      FlexGetFloat(m, "y_scale", &d->y_scale) && FlexGetFloat(m, "x_scale", &d->x_scale) &&
                      FlexGetFloat(m, "h_scale", &d->h_scale) && FlexGetFloat(m, "w_scale", &d->w_scale);
  return floats ? StatusCode::kOk : ctx.Fail(StatusCode::kInvalidModel, "threshold or scale options missing");
}

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 3, 4));
  TensorView boxes, classes, anchors, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &boxes));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &classes));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 2, &anchors));
  if (boxes.rank != 3 || classes.rank != 3 || anchors.rank != 2) {
    return ctx.Fail(StatusCode::kInvalidModel, "box encodings and class predictions must be 3-D, anchors 2-D");
  }
  DetectionData* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  RT_RETURN_IF_ERROR(ReadOptions(ctx, d));
  const uint64_t n = static_cast<uint64_t>(boxes.dims[1]);
  const uint64_t md = static_cast<uint64_t>(d->max_detections);
  const uint64_t per_box = md * n * 4;
  const uint64_t sizes[kNumScratch] = {n,
                                       n * 16,
                                       static_cast<uint64_t>(classes.dims[1]) * classes.dims[2] * 4,
                                       n * 4,
                                       n * 4,
                                       per_box,
                                       per_box,
                                       n * 4,
                                       per_box,
                                       (d->num_classes > d->max_detections ? d->num_classes : md) * n * 4,
                                       (n < md ? n : md) * n * 4};
  for (int k = 0; k < kNumScratch; ++k) {
    if (sizes[k] > 0x7FFFFFF0u) return ctx.Fail(StatusCode::kInvalidModel, "scratch buffer %d too large", k);
    RT_RETURN_IF_ERROR(ctx.RequestScratch(static_cast<uint32_t>(sizes[k]), &d->scratch[k]));
  }
  for (uint32_t o = 0; o < 4; ++o) {
    RT_RETURN_IF_ERROR(RequireOutput(ctx, o, &out));
    RT_RETURN_IF_ERROR(RequireType(ctx, out, TensorType::FLOAT32, "output"));
  }
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

// TFLM DecreasingPartialArgSort: the first k indices by value descending, ties by index.
void PartialArgSort(const float* values, int32_t n, int32_t k, int32_t* idx) {
  for (int32_t i = 0; i < n; ++i) idx[i] = i;
  auto before = [values](int32_t a, int32_t b) { return values[a] > values[b] || (values[a] == values[b] && a < b); };
  for (int32_t i = 0; i < k; ++i) {
    int32_t best = i;
    for (int32_t j = i + 1; j < n; ++j) best = before(idx[j], idx[best]) ? j : best;
    const int32_t t = idx[i];
    idx[i] = idx[best];
    idx[best] = t;
  }
}

// TFLM DecreasingArgSort: a stable sort of indices by value descending (merge sort with scratch).
void StableArgSort(const float* values, int32_t n, int32_t* idx, int32_t* scratch) {
  for (int32_t i = 0; i < n; ++i) idx[i] = i;
  for (int32_t width = 1; width < n; width *= 2) {
    for (int32_t lo = 0; lo < n; lo += 2 * width) {
      const int32_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
      int32_t l = lo, r = mid, o = lo;
      while (o < hi) scratch[o++] = (l >= mid || (r < hi && values[idx[r]] > values[idx[l]])) ? idx[r++] : idx[l++];
    }
    std::memcpy(idx, scratch, sizeof(int32_t) * static_cast<size_t>(n));
  }
}

// std::max / std::min exactly (first argument on ties; NaN handling follows from the comparison).
float Max(float a, float b) { return a < b ? b : a; }
float Min(float a, float b) { return b < a ? b : a; }

float IoU(const Box* boxes, int32_t i, int32_t j) {
  const Box &a = boxes[i], &b = boxes[j];
  const float area_a = (a.ymax - a.ymin) * (a.xmax - a.xmin);
  const float area_b = (b.ymax - b.ymin) * (b.xmax - b.xmin);
  if (area_a <= 0 || area_b <= 0) return 0.0;
  const float inter = Max(Min(a.ymax, b.ymax) - Max(a.ymin, b.ymin), 0.0) *
                      Max(Min(a.xmax, b.xmax) - Max(a.xmin, b.xmin), 0.0);
  return inter / (area_a + area_b - inter);
}

struct Buffers {
  int32_t sorted_capacity, selected_capacity;  // entries of sorted_indices / selected
  Box* decoded;
  uint8_t* active;
  float *score_buffer, *keep_scores, *scores_after, *sorted_values;
  int32_t *keep_indices, *sorted_indices, *buffer, *selected;
};

// TFLM NonMaxSuppressionSingleClassHelper.
StatusCode SingleClassNms(KernelContext& ctx, const DetectionData& d, const Buffers& b, int32_t num_boxes,
                          const float* scores, int32_t max_detections, int32_t* selected_size) {
  if (max_detections < 0 || !(d.iou_threshold > 0.0f && d.iou_threshold <= 1.0f)) {
    return ctx.Fail(StatusCode::kKernelError, "max detections or IoU threshold out of range");
  }
  for (int32_t i = 0; i < num_boxes; ++i) {
    if (b.decoded[i].ymin >= b.decoded[i].ymax || b.decoded[i].xmin >= b.decoded[i].xmax) {
      return ctx.Fail(StatusCode::kKernelError, "decoded box %d is empty", i);
    }
  }
  int32_t kept = 0;
  for (int32_t i = 0; i < num_boxes; ++i) {
    if (scores[i] >= d.score_threshold) b.keep_scores[kept++] = scores[i];
  }
  StableArgSort(b.keep_scores, kept, b.sorted_indices, b.keep_indices);
  for (int32_t i = 0, c = 0; i < num_boxes; ++i) {
    if (scores[i] >= d.score_threshold) b.keep_indices[c++] = i;
  }
  const int32_t output_size = kept < max_detections ? kept : max_detections;
  if (output_size > b.selected_capacity || kept > b.sorted_capacity) {
    return ctx.Fail(StatusCode::kKernelError, "more detections than TFLM's scratch buffers hold");
  }
  *selected_size = 0;
  int32_t active = kept;
  for (int32_t i = 0; i < kept; ++i) b.active[i] = 1;
  for (int32_t i = 0; i < kept; ++i) {
    if (active == 0 || *selected_size >= output_size) break;
    if (b.active[i] != 1) continue;
    const int32_t bi = b.keep_indices[b.sorted_indices[i]];
    b.selected[(*selected_size)++] = bi;
    b.active[i] = 0;
    --active;
    for (int32_t j = i + 1; j < kept; ++j) {
      if (b.active[j] == 1 && IoU(b.decoded, bi, b.keep_indices[b.sorted_indices[j]]) > d.iou_threshold) {
        b.active[j] = 0;
        --active;
      }
    }
  }
  return StatusCode::kOk;
}

struct Outputs {
  Box* boxes;
  float *classes, *scores, *count;
  int64_t slots;  // entries of classes / scores (boxes: 4 floats each)
};

// TFLM's fast path with max_classes_per_detection > 1 indexes its outputs per_anchor x (a counter
// advanced per class) + class, so later detections land past the outputs, on whatever the memory
// plan put there (this runtime's plan is TFLM's). Those writes are reproduced byte for byte inside
// the planned region; beyond it TFLM hits unplanned arena memory, which holds no tensor, so they
// are dropped here (on TFLM they may corrupt the tail of a tight arena).
template <typename T>
void WritePast(KernelContext& ctx, T* array, int64_t index, const void* value, size_t size) {
  uint8_t* base = nullptr;
  uint32_t bytes = 0;
  if (!ctx.PlannedRegion(&base, &bytes)) return;
  const uintptr_t at = reinterpret_cast<uintptr_t>(array) + static_cast<uint64_t>(index) * sizeof(T);
  const uintptr_t lo = reinterpret_cast<uintptr_t>(base);
  if (at < lo || at - lo > bytes || bytes - (at - lo) < size) return;
  std::memcpy(base + (at - lo), value, size);
}

StatusCode FastNms(KernelContext& ctx, const DetectionData& d, const Buffers& b, int32_t num_boxes, int32_t with_bg,
                   const float* scores, const Outputs& o) {
  const int32_t label_offset = with_bg - d.num_classes;
  if (d.max_classes_per_detection <= 0)
    return ctx.Fail(StatusCode::kKernelError, "max_classes_per_detection must be positive");
  const int32_t per_anchor = d.max_classes_per_detection < d.num_classes ? d.max_classes_per_detection : d.num_classes;
  for (int32_t row = 0; row < num_boxes; ++row) {
    const float* box_scores = scores + static_cast<int64_t>(row) * with_bg + label_offset;
    int32_t* class_indices = b.buffer + static_cast<int64_t>(row) * d.num_classes;
    PartialArgSort(box_scores, d.num_classes, per_anchor, class_indices);
    b.score_buffer[row] = box_scores[class_indices[0]];
  }
  int32_t selected = 0;
  RT_RETURN_IF_ERROR(SingleClassNms(ctx, d, b, num_boxes, b.score_buffer, d.max_detections, &selected));
  int32_t out_index = 0;
  for (int32_t i = 0; i < selected; ++i) {
    const int32_t s = b.selected[i];
    const float* box_scores = scores + static_cast<int64_t>(s) * with_bg + label_offset;
    const int32_t* class_indices = b.buffer + static_cast<int64_t>(s) * d.num_classes;
    for (int32_t col = 0; col < per_anchor; ++col) {
      // TFLM's offset: per_anchor x (a counter advanced per class) + col; with one class per
      // anchor (the usual case) simply the detection index.
      const int64_t at = static_cast<int64_t>(per_anchor) * out_index + col;
      const float cls = static_cast<float>(class_indices[col]), score = box_scores[class_indices[col]];
      if (at < o.slots) {
        o.boxes[at] = b.decoded[s];
        o.classes[at] = cls;
        o.scores[at] = score;
      } else {  // past the outputs: TFLM writes there anyway
        WritePast(ctx, o.boxes, at, &b.decoded[s], sizeof(Box));
        WritePast(ctx, o.classes, at, &cls, sizeof(float));
        WritePast(ctx, o.scores, at, &score, sizeof(float));
      }
      ++out_index;
    }
  }
  *o.count = static_cast<float>(out_index);
  return StatusCode::kOk;
}

StatusCode RegularNms(KernelContext& ctx, const DetectionData& d, const Buffers& b, int32_t num_boxes, int32_t with_bg,
                      const float* scores, const Outputs& o) {
  const int32_t label_offset = with_bg - d.num_classes;
  if (d.detections_per_class <= 0) return ctx.Fail(StatusCode::kKernelError, "detections_per_class must be positive");
  int32_t sorted_count = 0;
  for (int32_t col = 0; col < d.num_classes; ++col) {
    for (int32_t row = 0; row < num_boxes; ++row) {
      b.score_buffer[row] = scores[static_cast<int64_t>(row) * with_bg + col + label_offset];
    }
    int32_t selected = 0;
    RT_RETURN_IF_ERROR(SingleClassNms(ctx, d, b, num_boxes, b.score_buffer, d.detections_per_class, &selected));
    int32_t n = sorted_count;
    for (int32_t i = 0; i < selected; ++i, ++n) {
      b.buffer[n] = b.selected[i] * with_bg + col + label_offset;
      b.scores_after[n] = b.score_buffer[b.selected[i]];
    }
    if (n > b.sorted_capacity)
      return ctx.Fail(StatusCode::kKernelError, "more detections than TFLM's scratch buffers hold");
    const int32_t to_sort = n < d.max_detections ? n : d.max_detections;
    PartialArgSort(b.scores_after, n, to_sort, b.sorted_indices);
    for (int32_t r = 0; r < to_sort; ++r) {
      const int32_t t = b.sorted_indices[r];
      b.sorted_indices[r] = b.buffer[t];
      b.sorted_values[r] = b.scores_after[t];
    }
    for (int32_t r = 0; r < to_sort; ++r) {
      b.buffer[r] = b.sorted_indices[r];
      b.scores_after[r] = b.sorted_values[r];
    }
    sorted_count = to_sort;
  }
  if (d.max_detections > o.slots) return ctx.Fail(StatusCode::kKernelError, "outputs hold fewer than max_detections");
  for (int32_t i = 0; i < d.max_detections; ++i) {
    if (i < sorted_count) {
      const int32_t anchor = b.buffer[i] / with_bg;
      o.boxes[i] = b.decoded[anchor];
      o.classes[i] = static_cast<float>(b.buffer[i] - anchor * with_bg - label_offset);
      o.scores[i] = b.scores_after[i];
    } else {
      o.boxes[i] = Box{0.0f, 0.0f, 0.0f, 0.0f};
      o.classes[i] = 0.0f;
      o.scores[i] = 0.0f;
    }
  }
  *o.count = static_cast<float>(sorted_count);
  return StatusCode::kOk;
}

void Decode(const DetectionData& d, const TensorView& enc, const TensorView& anchors, Box* out) {
  const float* e = enc.As<const float>();
  const float* a = anchors.As<const float>();
  for (int32_t i = 0; i < enc.dims[1]; ++i) {
    const float* x = e + static_cast<int64_t>(i) * enc.dims[2];  // y, x, h, w
    const float* an = a + 4 * static_cast<int64_t>(i);           // y, x, h, w
    const float yc = static_cast<float>(static_cast<double>(x[0]) / static_cast<double>(d.y_scale) *
                                            static_cast<double>(an[2]) +
                                        static_cast<double>(an[0]));
    const float xc = static_cast<float>(static_cast<double>(x[1]) / static_cast<double>(d.x_scale) *
                                            static_cast<double>(an[3]) +
                                        static_cast<double>(an[1]));
    const float hh = static_cast<float>(0.5 * std::exp(static_cast<double>(x[2]) / static_cast<double>(d.h_scale)) *
                                        static_cast<double>(an[2]));
    const float hw = static_cast<float>(0.5 * std::exp(static_cast<double>(x[3]) / static_cast<double>(d.w_scale)) *
                                        static_cast<double>(an[3]));
    out[i] = Box{yc - hh, xc - hw, yc + hh, xc + hw};
  }
}

StatusCode Eval(KernelContext& ctx) {
  TensorView enc, classes, anchors, ob, oc, os, on;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &enc));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &classes));
  RT_RETURN_IF_ERROR(RequireInput(ctx, 2, &anchors));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &ob));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 1, &oc));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 2, &os));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 3, &on));
  const auto& d = *static_cast<const DetectionData*>(ctx.op_data());
  const int32_t num_boxes = enc.dims[1], with_bg = classes.dims[2];
  if (enc.type != TensorType::FLOAT32 || classes.type != TensorType::FLOAT32 || anchors.type != TensorType::FLOAT32) {
    return ctx.Fail(StatusCode::kUnsupported, "only float32 inputs are decoded (TFLM's kernel)");
  }
  if (enc.dims[0] != 1 || enc.dims[2] < 4 || anchors.dims[0] < num_boxes || anchors.dims[1] < 4 ||
      classes.dims[0] != 1 || classes.dims[1] != num_boxes || with_bg - d.num_classes > 1 || with_bg < d.num_classes ||
      d.num_classes < 1) {
    return ctx.Fail(StatusCode::kKernelError, "input shapes do not match the options");
  }
  Buffers b{};
  void* s[kNumScratch];
  for (int k = 0; k < kNumScratch; ++k) {
    s[k] = ctx.GetScratch(d.scratch[k]);
    if (s[k] == nullptr && num_boxes > 0) return ctx.Fail(StatusCode::kKernelError, "scratch buffers missing");
  }
  b.active = static_cast<uint8_t*>(s[kActive]);
  b.decoded = static_cast<Box*>(s[kDecoded]);
  b.score_buffer = static_cast<float*>(s[kScoreBuffer]);
  b.keep_scores = static_cast<float*>(s[kKeepScores]);
  b.scores_after = static_cast<float*>(s[kScoresAfterNms]);
  b.sorted_values = static_cast<float*>(s[kSortedValues]);
  b.keep_indices = static_cast<int32_t*>(s[kKeepIndices]);
  b.sorted_indices = static_cast<int32_t*>(s[kSortedIndices]);
  b.buffer = static_cast<int32_t*>(s[kBuffer]);
  b.selected = static_cast<int32_t*>(s[kSelected]);
  b.sorted_capacity = d.max_detections * num_boxes;
  b.selected_capacity = (num_boxes < d.max_detections ? num_boxes : d.max_detections) * num_boxes;
  Decode(d, enc, anchors, b.decoded);
  int64_t slots = ElementCount(ob) / 4;
  slots = ElementCount(oc) < slots ? ElementCount(oc) : slots;
  slots = ElementCount(os) < slots ? ElementCount(os) : slots;
  if (ElementCount(on) < 1) return ctx.Fail(StatusCode::kKernelError, "num_detections output is empty");
  const Outputs o{ob.As<Box>(), oc.As<float>(), os.As<float>(), on.As<float>(), slots};
  return d.regular_nms ? RegularNms(ctx, d, b, num_boxes, with_bg, classes.As<const float>(), o)
                       : FastNms(ctx, d, b, num_boxes, with_bg, classes.As<const float>(), o);
}

}  // namespace

RT_REGISTER_NAMED_KERNEL(DETECTION_POSTPROCESS, "TFLite_Detection_PostProcess", &Prepare, &Eval)

}  // namespace arenaplan::rt
