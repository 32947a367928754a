/* A qemu TCG plugin that counts executed guest instructions: when a translation block is
 * translated, an inline "add the block's instruction count" is attached to its execution, so the
 * count costs one host add per executed block (no callback). At exit it prints
 * "insn_count N". Single vCPU (mps2-an386), so the plain counters are race-free.
 * With the argument "profile" each block start address also gets its own counter, and the exit
 * report adds one line "tb 0xADDRESS N" per block (instructions executed in blocks starting there;
 * firmware/profile.py sums them per function).
 *
 * Debian's qemu 7.2 loads plugins (-plugin) but ships no qemu-plugin.h, so the few declarations of
 * the stable plugin C API (version 1) used here are written out below from its documentation.
 * build: cc -shared -fPIC -O2 -o insn_count.so insn_count.c
 * use:   qemu-system-arm ... -plugin ./insn_count.so -d plugin -D count.txt */
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* --- qemu plugin API, version 1 (qemu 6.0 .. 8.1) ------------------------------------------------ */
typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t; /* only passed through */
struct qemu_plugin_tb;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op, void *ptr,
                                              uint64_t imm);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);
void qemu_plugin_outs(const char *string);
#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))
/* ------------------------------------------------------------------------------------------------ */

QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;

static uint64_t insn_count;

/* Per-block counters (profile): open addressing on the block's start address. */
enum { kSlots = 1 << 16 };
static int profile;
static uint64_t slot_address[kSlots];
static uint64_t slot_count[kSlots];
static int slot_used[kSlots];
static uint64_t unplaced; /* blocks beyond the table: counted in the total only */

static uint64_t *Slot(uint64_t address) {
  for (uint64_t i = (address >> 1) * 2654435761u, k = 0; k < kSlots; ++i, ++k) {
    const uint64_t s = i % kSlots;
    if (!slot_used[s]) {
      slot_used[s] = 1;
      slot_address[s] = address;
    }
    if (slot_address[s] == address) return &slot_count[s];
  }
  return &unplaced;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  (void)id;
  const uint64_t n = qemu_plugin_tb_n_insns(tb);
  qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &insn_count, n);
  if (profile) qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, Slot(qemu_plugin_tb_vaddr(tb)), n);
}

static void on_exit(qemu_plugin_id_t id, void *userdata) {
  (void)id;
  (void)userdata;
  char line[64];
  snprintf(line, sizeof(line), "insn_count %" PRIu64 "\n", insn_count);
  qemu_plugin_outs(line);
  for (int s = 0; profile && s < kSlots; ++s) {
    if (!slot_used[s] || slot_count[s] == 0) continue;
    snprintf(line, sizeof(line), "tb 0x%" PRIx64 " %" PRIu64 "\n", slot_address[s], slot_count[s]);
    qemu_plugin_outs(line);
  }
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv) {
  (void)info;
  for (int i = 0; i < argc; ++i) profile |= strcmp(argv[i], "profile") == 0 || strcmp(argv[i], "profile=on") == 0;
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
  qemu_plugin_register_atexit_cb(id, on_exit, NULL);
  return 0;
}
