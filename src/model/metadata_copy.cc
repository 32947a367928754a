// WriteModelCopyWithMetadata. A flatbuffer offset (uoffset) points forward from where it is stored
// and is relative, so the original file can be kept byte for byte behind a new prefix:
//
//   [root -> new Model]["TFL3"][new Model vtable+table][new buffers vector][new metadata vector]
//   [new Metadata table + name][new Buffer tables][new data, 16-aligned][pad to 64][original file]
//
// The new Model copies the original's fields (pointing into the shifted original) except `buffers`
// (original Buffer tables plus the new one; external-data buffers get a copy with offset + shift)
// and `metadata` (original entries, one replaced or added). Fields of Model past signature_defs (id 7)
// are not copied. O(size).
#include <cstring>
#include <string>

#include "model/writer.h"

namespace arenaplan::model {
namespace {

constexpr size_t kShiftAlign = 64;  // keeps every alignment of the original file (TFLite uses 16)

// Unaligned little-endian reads of the original file (memcpy: no alignment assumed).
template <typename T>
T Load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// A table of the original file: position and its vtable (already verified by ReadModel).
struct Table {
  const uint8_t* file;
  size_t pos;
  // Position of field `id` in the file, 0 when absent.
  size_t Field(int id) const {
    const size_t vt = pos - static_cast<size_t>(static_cast<int64_t>(Load<int32_t>(file + pos)));
    const uint16_t vt_size = Load<uint16_t>(file + vt);
    const size_t slot = 4 + 2 * static_cast<size_t>(id);
    if (slot + 2 > vt_size) return 0;
    const uint16_t off = Load<uint16_t>(file + vt + slot);
    return off == 0 ? 0 : pos + off;
  }
  // Target of offset field `id`, 0 when absent.
  size_t Ref(int id) const {
    const size_t f = Field(id);
    return f == 0 ? 0 : f + Load<uint32_t>(file + f);
  }
};

// Append-only output with forward references resolved once the prefix length is known.
class Prefix {
 public:
  size_t size() const { return out_.size(); }
  void Align(size_t a, size_t phase = 0) {
    while (out_.size() % a != phase) out_.push_back(0);
  }
  void Put16(uint16_t v) { PutBytes(&v, 2); }
  void Put32(uint32_t v) { PutBytes(&v, 4); }
  void Put64(uint64_t v) { PutBytes(&v, 8); }
  void PutBytes(const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    out_.insert(out_.end(), b, b + n);
  }
  // Reserve a uoffset here pointing to `target` in the prefix (is_original: in the original file).
  void Ref(size_t target, bool is_original) {
    refs_.push_back({out_.size(), target, is_original});
    Put32(0);
  }
  // Reserve a uoffset to be set with SetRef later.
  size_t Hole() {
    Put32(0);
    return out_.size() - 4;
  }
  void SetRef(size_t hole, size_t target) { refs_.push_back({hole, target, false}); }
  void Write32(size_t at, uint32_t v) { std::memcpy(out_.data() + at, &v, 4); }

  std::vector<uint8_t> Finish(const uint8_t* original, size_t size) {
    Align(kShiftAlign);
    const size_t shift = out_.size();
    for (const auto& r : refs_) {
      const size_t target = r.is_original ? r.target + shift : r.target;
      Write32(r.at, static_cast<uint32_t>(target - r.at));
    }
    out_.insert(out_.end(), original, original + size);
    return std::move(out_);
  }

 private:
  struct Pending {
    size_t at;
    size_t target;
    bool is_original;
  };
  std::vector<uint8_t> out_;
  std::vector<Pending> refs_;
};

// A table with a fresh vtable: [vtable][soffset][fields...]. `fields` holds byte offsets of each
// field id inside the table (0 = absent); the table body is `table_size` bytes, 4- or 8-aligned.
size_t BeginTable(Prefix& p, const std::vector<uint16_t>& fields, uint16_t table_size, size_t align) {
  const uint16_t vt_size = static_cast<uint16_t>(4 + 2 * fields.size());
  // Place the vtable so the table right after it starts aligned.
  p.Align(2);
  while ((p.size() + vt_size) % align != 0) p.Put16(0);
  const size_t vt = p.size();
  p.Put16(vt_size);
  p.Put16(table_size);
  for (uint16_t f : fields) p.Put16(f);
  const size_t table = p.size();
  p.Put32(static_cast<uint32_t>(table - vt));  // soffset: vtable lies before the table
  return table;
}

}  // namespace

Result<std::vector<uint8_t>> WriteModelCopyWithMetadata(const uint8_t* bytes, size_t size, const std::string& name,
                                                        const std::vector<uint8_t>& data) {
  auto model = ReadModel(bytes, size);
  if (!model.ok()) return model.status();
  if (size >= (size_t{1} << 31)) return Unsupported("model copy: files of 2 GiB or more are not supported");
  const Table root{bytes, Load<uint32_t>(bytes)};
  const size_t n_buffers = model->buffers.size();

  Prefix p;
  p.Put32(0);  // root offset, set below
  p.PutBytes("TFL3", 4);
  // New Model: version, operator_codes, subgraphs, description, buffers, metadata_buffer, metadata,
  // signature_defs; every field 4 bytes at 4 + 4 * id.
  std::vector<uint16_t> fields(8);
  for (int id = 0; id < 8; ++id) {
    const bool ours = id == 4 || id == 6;
    fields[id] = (ours || root.Field(id) != 0) ? static_cast<uint16_t>(4 + 4 * id) : 0;
  }
  const size_t model_table = BeginTable(p, fields, 36, 4);
  p.SetRef(0, model_table);
  size_t buffers_hole = 0, metadata_hole = 0;
  for (int id = 0; id < 8; ++id) {
    if (id == 4) {
      buffers_hole = p.Hole();
      continue;
    }
    if (id == 6) {
      metadata_hole = p.Hole();
      continue;
    }
    if (fields[id] == 0) {
      p.Put32(0);
      continue;
    }
    if (id == 0) {
      p.Put32(Load<uint32_t>(bytes + root.Field(0)));
      continue;
    }
    p.Ref(root.Ref(id), true);
  }

  // Buffers: the original tables, a replacement for external-data ones, an empty buffer 0 when the
  // model had none, and the new data buffer last.
  const bool add_empty = n_buffers == 0;
  const size_t new_index = n_buffers + (add_empty ? 1 : 0);
  const size_t orig_buffers = root.Ref(4);
  p.Align(4);
  p.SetRef(buffers_hole, p.size());
  p.Put32(static_cast<uint32_t>(new_index + 1));
  std::vector<std::pair<size_t, size_t>> external;  // (hole, original buffer table)
  size_t empty_hole = 0;
  if (add_empty) empty_hole = p.Hole();
  for (size_t i = 0; i < n_buffers; ++i) {
    const size_t elem = orig_buffers + 4 + 4 * i;
    const Table buffer{bytes, elem + Load<uint32_t>(bytes + elem)};
    const bool has_inline = buffer.Ref(0) != 0 && Load<uint32_t>(bytes + buffer.Ref(0)) > 0;
    const size_t off_field = buffer.Field(1);
    if (!has_inline && off_field != 0 && Load<uint64_t>(bytes + off_field) > 1) {
      external.push_back({p.Hole(), buffer.pos});
    } else {
      p.Ref(buffer.pos, true);
    }
  }
  const size_t data_buffer_hole = p.Hole();

  // Metadata: original entries in order, the first one named `name` replaced; else appended.
  const size_t orig_metadata = root.Ref(6);
  const size_t n_meta = model->metadata.size();
  size_t replace = n_meta;
  for (size_t i = 0; i < n_meta; ++i) {
    if (model->metadata[i].name == name) {
      replace = i;
      break;
    }
  }
  p.Align(4);
  p.SetRef(metadata_hole, p.size());
  p.Put32(static_cast<uint32_t>(replace == n_meta ? n_meta + 1 : n_meta));
  size_t new_meta_hole = 0;
  for (size_t i = 0; i < n_meta; ++i) {
    const size_t elem = orig_metadata + 4 + 4 * i;
    if (i == replace) {
      new_meta_hole = p.Hole();
      continue;
    }
    p.Ref(elem + Load<uint32_t>(bytes + elem), true);
  }
  if (replace == n_meta) new_meta_hole = p.Hole();

  // Metadata table {name, buffer}.
  const size_t meta_table = BeginTable(p, {4, 8}, 12, 4);
  p.SetRef(new_meta_hole, meta_table);
  const size_t name_hole = p.Hole();
  p.Put32(static_cast<uint32_t>(new_index));
  p.Align(4);
  p.SetRef(name_hole, p.size());
  p.Put32(static_cast<uint32_t>(name.size()));
  p.PutBytes(name.data(), name.size());
  p.PutBytes("", 1);

  // External-data buffers: {offset + shift, size}; the shift is only known at the end, so their
  // offsets are patched after Finish.
  std::vector<std::pair<size_t, uint64_t>> offset_fields;  // (position in prefix, original offset)
  for (const auto& [hole, pos] : external) {
    const Table buffer{bytes, pos};
    const size_t t = BeginTable(p, {0, 8, 16}, 24, 8);
    p.SetRef(hole, t);
    p.Put32(0);  // padding so the 8-byte fields are aligned
    offset_fields.push_back({p.size(), Load<uint64_t>(bytes + buffer.Field(1))});
    p.Put64(0);
    p.Put64(buffer.Field(2) ? Load<uint64_t>(bytes + buffer.Field(2)) : 0);
  }
  if (add_empty) {
    const size_t t = BeginTable(p, {}, 4, 4);
    p.SetRef(empty_hole, t);
  }
  // The data buffer {data}, its bytes 16-aligned (TFLM reads the offline plan in place as int32).
  const size_t data_table = BeginTable(p, {4}, 8, 4);
  p.SetRef(data_buffer_hole, data_table);
  const size_t data_hole = p.Hole();
  p.Align(16, 12);
  p.SetRef(data_hole, p.size());
  p.Put32(static_cast<uint32_t>(data.size()));
  p.PutBytes(data.data(), data.size());

  std::vector<uint8_t> out = p.Finish(bytes, size);
  const uint64_t shift = out.size() - size;
  for (const auto& [at, offset] : offset_fields) {
    const uint64_t shifted = offset + shift;
    std::memcpy(out.data() + at, &shifted, 8);
  }
  auto check = ReadModel(out.data(), out.size());
  if (!check.ok()) return Internal("model copy does not read back: " + check.status().message());
  return out;
}

}  // namespace arenaplan::model
