#!/usr/bin/env bash
# Cortex-M4 benchmark: for each model, builds the firmware (firmware/build.sh: the model's own
# kernels, the DSP fast paths of -mcpu=cortex-m4), runs it on qemu mps2-an386 with an
# instruction-counting TCG plugin (firmware/qemu/insn_count.c) for 1 and for 6 Invokes, and prints
#   MODEL instructions_per_invoke N flash_bytes F ram_bytes R arena_bytes A outputs identical|differ
# N = (count(6) - count(1)) / 5, both runs filling the inputs 6 times; F = text + data, R = data + bss (static arena and 64 KiB stack
# included) of the ELF; A = the static arena, the device's own smallest working arena (a first run
# reports it, the firmware is then relinked with exactly that); outputs = the golden TFLM digests.
# --kernel-flash: instead, links every kernel and prints the flash of each kernel group.
# usage: scripts/cortex-m-bench.sh [--kernel-flash] [MODEL ...]
#   MODEL: a name under ../shared/models/ or ../shared/op-suite/models/ (".tflite" optional) or a
#   path; default: the MLPerf Tiny int8 models and tflm_person_detect_int8.
#   ARENAPLAN_BUILD: the host build folder (default build/, configured and built here if needed).
set -euo pipefail
SRC="$(cd "$(dirname "$0")/.." && pwd)"
SHARED="${ARENAPLAN_SHARED:-$SRC/../shared}"
BUILD="${ARENAPLAN_BUILD:-$SRC/build}"
OUT="$BUILD/cortex-m-bench"
MODE=models
if [ "${1:-}" = "--kernel-flash" ]; then MODE=flash; shift; fi
MODELS=("$@")
[ ${#MODELS[@]} -gt 0 ] || MODELS=(mlperf_kws_dscnn_int8 mlperf_vww_mobilenet_int8 mlperf_ic_resnet8_int8
                                   mlperf_ad_autoencoder_int8 tflm_person_detect_int8)
for tool in arm-none-eabi-g++ qemu-system-arm cc python3 cmake; do
  command -v "$tool" >/dev/null || { echo "missing tool: $tool (scripts/install-deps.sh)" >&2; exit 1; }
done
if [ ! -x "$BUILD/arenaplan" ]; then
  cmake -S "$SRC" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$BUILD" --target arenaplan -j 2 >/dev/null
ARENAPLAN="$BUILD/arenaplan"
mkdir -p "$OUT"
cc -shared -fPIC -O2 -Wall -o "$OUT/insn_count.so" "$SRC/firmware/qemu/insn_count.c"

# model path and its golden digests ("" when unknown)
resolve() {
  local m="$1"
  for p in "$m" "$SHARED/models/$m" "$SHARED/models/$m.tflite" "$SHARED/op-suite/models/$m" \
           "$SHARED/op-suite/models/$m.tflite"; do
    [ -f "$p" ] && { echo "$(cd "$(dirname "$p")" && pwd)/$(basename "$p")"; return; }
  done
  echo "model not found: $m" >&2; exit 2
}
golden_fnv() {
  python3 - "$1" "$SHARED" <<'PY'
import csv, os, sys
path, shared = sys.argv[1], sys.argv[2]
for base in ('models', 'op-suite/models'):
    root = os.path.realpath(os.path.join(shared, base))
    if os.path.realpath(path).startswith(root + os.sep):
        rel = os.path.relpath(os.path.realpath(path), root)
        golden = os.path.join(shared, os.path.dirname(base), 'golden/tflm-x86_64/arena.csv')
        for row in csv.DictReader(open(golden)):
            if row['model'] == rel:
                print(row['output_fnv1a'])
PY
}
# qemu run of DIR/fw.elf with N Invokes (and 6 input fills, so that the counts of N = 1 and N = 6
# differ by 5 Invokes exactly) and the counting plugin: prints the instruction count.
count() {
  local dir="$1" n="$2"
  timeout 600 qemu-system-arm -M mps2-an386 -nographic \
    -semihosting-config enable=on,target=native,arg=fw,arg="$n",arg=6 \
    -kernel "$dir/fw.elf" -plugin "$OUT/insn_count.so" -d plugin -D "$dir/count$n.txt" >"$dir/qemu$n.log" 2>&1 \
    </dev/null || true
  sed -n 's/^insn_count //p' "$dir/count$n.txt"
}

if [ "$MODE" = flash ]; then
  MODEL=$(resolve "${MODELS[0]}")
  NAME=$(basename "$MODEL" .tflite)
  ARENA=$("$ARENAPLAN" run "$MODEL" --kernels dsp --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["min_arena_bytes"])')
  "$SRC/firmware/build.sh" "$OUT" "$BUILD/generated" "$ARENAPLAN" "$MODEL" "$ARENA" "$(golden_fnv "$MODEL")" all >/dev/null
  python3 "$SRC/firmware/flash_groups.py" "$OUT/$NAME-all-kernels/fw.elf"
  exit 0
fi

for m in "${MODELS[@]}"; do
  MODEL=$(resolve "$m")
  NAME=$(basename "$MODEL" .tflite)
  FNV=$(golden_fnv "$MODEL")
  ARENA=$("$ARENAPLAN" run "$MODEL" --kernels dsp --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["min_arena_bytes"])')
  "$SRC/firmware/build.sh" "$OUT" "$BUILD/generated" "$ARENAPLAN" "$MODEL" "$ARENA" "$FNV" >/dev/null
  DIR="$OUT/$NAME"
  count "$DIR" 1 >/dev/null
  DEVICE=$(sed -n 's/.*min_arena_bytes \([0-9]*\).*/\1/p' "$DIR/qemu1.log")
  if [ -n "$DEVICE" ] && [ "$DEVICE" != "$ARENA" ]; then
    ARENA="$DEVICE"
    "$SRC/firmware/build.sh" "$OUT" "$BUILD/generated" "$ARENAPLAN" "$MODEL" "$ARENA" "$FNV" >/dev/null
  fi
  N1=$(count "$DIR" 1)
  N6=$(count "$DIR" 6)
  if [ -z "$N1" ] || [ -z "$N6" ]; then
    echo "$NAME: qemu run failed, see $DIR/qemu1.log" >&2
    exit 1
  fi
  SAME=differ
  if grep -q "RESULT PASS" "$DIR/qemu1.log" && grep -q "RESULT PASS" "$DIR/qemu6.log"; then SAME=identical; fi
  read -r TEXT DATA BSS _ < <(arm-none-eabi-size "$DIR/fw.elf" | tail -1)
  PER=$(( (N6 - N1) / 5 ))
  echo "$NAME instructions_per_invoke $PER flash_bytes $((TEXT + DATA)) ram_bytes $((DATA + BSS)) arena_bytes $ARENA outputs $SAME"
done
