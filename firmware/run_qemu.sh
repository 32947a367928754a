#!/usr/bin/env bash
# Builds the firmware for one corpus model and runs it on qemu's Cortex-M4 board (mps2-an386),
# checking its outputs against the golden TFLM digests (golden/tflm-x86_64/arena.csv, output_fnv1a).
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
"$SRC/firmware/build.sh" "$OUT" "$GEN" "$MODEL" "$ARENA" "$FNV"

LOG="$OUT/qemu.log"
set +e
timeout 300 qemu-system-arm -M mps2-an386 -nographic -semihosting -kernel "$OUT/fw.elf" >"$LOG" 2>&1 </dev/null
RC=$?
set -e
cat "$LOG"
read -r TEXT DATA BSS _ < <(arm-none-eabi-size "$OUT/fw.elf" | tail -1)
echo "flash (text+rodata+data init): $((TEXT + DATA)) bytes; RAM (data+bss incl. arena $ARENA + 64 KiB stack): $((DATA + BSS)) bytes"
if [ $RC -ne 0 ] || ! grep -q "RESULT PASS" "$LOG"; then
  echo "firmware run FAILED (qemu exit $RC)" >&2
  exit 1
fi
echo "firmware run PASSED"
