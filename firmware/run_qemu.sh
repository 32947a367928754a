#!/usr/bin/env bash
# Builds the firmware for one corpus model and runs it on qemu's Cortex-M4 board (mps2-an386),
# checking its outputs against the golden TFLM digests (golden/tflm-x86_64/arena.csv, output_fnv1a),
# twice: fw.elf links only the kernels the model uses (an op resolver generated from the model) and
# must hold exactly those kernels and be smaller; fw_all.elf links every kernel. Both run under
# `-icount shift=0` (1 ns of virtual time per instruction): the firmware's SysTick calibration loop
# must read 2,000,000 instructions, and it prints Invoke's instruction count.
# usage: run_qemu.sh ARENAPLAN_BINARY GENERATED_DIR OUT_DIR [MODEL_PATH_UNDER_models/]
#   the arena is sized with the host runtime's exact smallest arena (`arenaplan run --format json`),
#   which is an upper bound on the 32-bit target (its pointers are smaller).
set -euo pipefail
SRC="$(cd "$(dirname "$0")/.." && pwd)"
ARENAPLAN="$1"; GEN="$2"; OUT="$3"; MODEL_REL="${4:-mlperf_kws_dscnn_int8.tflite}"
SHARED="${ARENAPLAN_SHARED:-$SRC/../shared}"
MODEL="$SHARED/models/$MODEL_REL"
if [ ! -f "$MODEL" ]; then
  if [ "${CI:-}" = "true" ]; then echo "missing $MODEL" >&2; exit 1; fi
  echo "SKIP: $MODEL not found (set ARENAPLAN_SHARED)"; exit 77   # ctest SKIP_RETURN_CODE
fi
for tool in arm-none-eabi-g++ qemu-system-arm python3; do
  command -v "$tool" >/dev/null || { echo "missing tool: $tool" >&2; exit 1; }
done

FNV=$(python3 - "$SHARED/golden/tflm-x86_64/arena.csv" "$MODEL_REL" <<'PY'
import csv, sys
for row in csv.DictReader(open(sys.argv[1])):
    if row['model'] == sys.argv[2]:
        print(row['output_fnv1a'])
PY
)
ARENA=$("$ARENAPLAN" run "$MODEL" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["min_arena_bytes"])')
echo "model $MODEL_REL: golden fnv1a64 '$FNV', arena $ARENA bytes"
mkdir -p "$OUT"
"$ARENAPLAN" inspect "$MODEL" --format json |
  python3 -c 'import json,sys; print("\n".join(json.load(sys.stdin)["operator_set"]))' >"$OUT/ops.txt"
"$SRC/firmware/build.sh" "$OUT" "$GEN" "$MODEL" "$ARENA" "$FNV" "$OUT/ops.txt"

fail() { echo "firmware run FAILED: $*" >&2; exit 1; }
flash() { arm-none-eabi-size "$1" | tail -1 | awk '{print $1 + $2}'; }
kernels() { arm-none-eabi-nm -C "$1" | grep -o 'rt::Register_[A-Za-z0-9_]*()' | sort -u | wc -l; }
for image in fw fw_all; do
  LOG="$OUT/qemu_$image.log"
  set +e
  timeout 300 qemu-system-arm -M mps2-an386 -nographic -semihosting -icount shift=0,align=off,sleep=off \
    -kernel "$OUT/$image.elf" >"$LOG" 2>&1 </dev/null
  RC=$?
  set -e
  echo "--- $image.elf: $(kernels "$OUT/$image.elf") kernels, flash $(flash "$OUT/$image.elf") bytes"
  cat "$LOG"
  { [ $RC -eq 0 ] && grep -q "RESULT PASS" "$LOG"; } || fail "$image.elf (qemu exit $RC)"
  CAL=$(sed -n 's/^calibration: \([0-9]*\) instructions.*/\1/p' "$LOG")
  [ -n "$CAL" ] && [ "$CAL" -ge 1980000 ] && [ "$CAL" -le 2020000 ] ||
    fail "$image.elf: the calibration loop read ${CAL:-nothing} instructions, not 2000000 (+-1 %)"
done
read -r TEXT DATA BSS _ < <(arm-none-eabi-size "$OUT/fw.elf" | tail -1)
echo "flash (text+rodata+data init): $((TEXT + DATA)) bytes; RAM (data+bss incl. arena $ARENA + 64 KiB stack): $((DATA + BSS)) bytes"
# The model's resolver holds exactly the model's ops; the full one every kernel of registrations.h.
WANT_MODEL=$(grep -c . "$OUT/ops.txt")
WANT_ALL=$(grep -c '^const KernelRegistration\* Register_' "$SRC/src/runtime/kernels/registrations.h")
[ "$(kernels "$OUT/fw.elf")" -eq "$WANT_MODEL" ] || fail "fw.elf links $(kernels "$OUT/fw.elf") kernels, the model has $WANT_MODEL ops"
[ "$(kernels "$OUT/fw_all.elf")" -eq "$WANT_ALL" ] || fail "fw_all.elf links $(kernels "$OUT/fw_all.elf") of $WANT_ALL kernels"
[ "$(flash "$OUT/fw.elf")" -lt "$(flash "$OUT/fw_all.elf")" ] || fail "the model's kernels alone take no less flash"
python3 "$SRC/firmware/flash_report.py" "$OUT/fw_all.map" >"$OUT/flash_by_kernel.md"
echo "flash per kernel file: $OUT/flash_by_kernel.md"
echo "firmware run PASSED"
