#!/usr/bin/env bash
# Builds the firmware for corpus models and runs each on qemu's Cortex-M4 board (mps2-an386),
# checking its outputs against the golden TFLM digests (golden/tflm-x86_64/arena.csv, output_fnv1a)
# and that it links exactly the kernels of the model's ops (its generated resolver's).
# usage: run_qemu.sh ARENAPLAN GENERATED_DIR OUT_DIR MODEL...
#   MODEL: a path under ../shared/models/ or ../shared/op-suite/models/ (e.g. mlperf_kws_dscnn_int8.tflite);
#          "op-suite-int8": every op-suite model with an int8 input or output that the runtime runs
#          (a model using an op without a kernel is listed as such; the host op-suite tests own that);
#          "all-kernels:MODEL": MODEL on a firmware that links every kernel;
#          "optimized:MODEL": MODEL rewritten by `arenaplan optimize --for arenaplan --kernels dsp` (stream
#          segments, in-place ops, folded pads) and run on the fast kernels against MODEL's digests.
# Each arena is the host runtime's exact smallest arena with the same (DSP) kernels, `arenaplan run
# --kernels dsp`: an upper bound on the 32-bit target, whose pointers are smaller.
set -euo pipefail
SRC="$(cd "$(dirname "$0")/.." && pwd)"
ARENAPLAN="$1"; GEN="$2"; OUT="$3"; shift 3
SHARED="${ARENAPLAN_SHARED:-$SRC/../shared}"
if [ ! -d "$SHARED/models" ]; then
  if [ "${CI:-}" = "true" ]; then echo "missing $SHARED/models" >&2; exit 1; fi
  echo "SKIP: $SHARED/models not found (set ARENAPLAN_SHARED)"; exit 77   # ctest SKIP_RETURN_CODE
fi
for tool in arm-none-eabi-g++ qemu-system-arm python3; do
  command -v "$tool" >/dev/null || { echo "missing tool: $tool" >&2; exit 1; }
done
TABLES=("$SRC/src/runtime/kernels/op_table.cc" "$SRC/src/runtime/kernels/dsp/op_table.cc")

# golden digests of a model path ("" when it has none)
golden_fnv() {
  python3 - "$1" "$SHARED" <<'PY'
import csv, os, sys
path, shared = os.path.realpath(sys.argv[1]), sys.argv[2]
for base in ('', 'op-suite'):
    root = os.path.realpath(os.path.join(shared, base, 'models'))
    if path.startswith(root + os.sep):
        for row in csv.DictReader(open(os.path.join(shared, base, 'golden/tflm-x86_64/arena.csv'))):
            if row['model'] == os.path.relpath(path, root):
                print(row['output_fnv1a'])
PY
}

# Builds and runs one model; KERNELS is "model" or "all"; GOLDEN: the model whose digests its
# outputs must match (default: itself). Returns 1 on any failure.
run_one() {
  local model="$1" kernels="$2" golden="${3:-$1}" name dir fnv arena rc
  name=$(basename "$model" .tflite)
  fnv=$(golden_fnv "$golden")
  [ -n "$fnv" ] || { echo "$name: no golden digests" >&2; return 1; }
  arena=$("$ARENAPLAN" run "$model" --kernels dsp --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["min_arena_bytes"])')
  echo "== $name ($kernels kernels): golden fnv1a64 '$fnv', arena $arena bytes"
  "$SRC/firmware/build.sh" "$OUT" "$GEN" "$ARENAPLAN" "$model" "$arena" "$fnv" "$kernels" | tail -1
  dir="$OUT/$name"; [ "$kernels" = all ] && dir="$OUT/$name-all-kernels"
  if [ "$kernels" = model ]; then
    python3 "$SRC/firmware/gen_resolver.py" --check-elf "$dir/fw.elf" "$dir/ops.json" "${TABLES[@]}" || return 1
  fi
  set +e
  timeout 300 qemu-system-arm -M mps2-an386 -nographic -semihosting -kernel "$dir/fw.elf" >"$dir/qemu.log" 2>&1 </dev/null
  rc=$?
  set -e
  grep -v "^  " "$dir/qemu.log"
  local text data bss
  read -r text data bss _ < <(arm-none-eabi-size "$dir/fw.elf" | tail -1)
  echo "flash (text+rodata+data init): $((text + data)) bytes; RAM (data+bss incl. arena $arena + 64 KiB stack): $((data + bss)) bytes"
  if [ $rc -ne 0 ] || ! grep -q "RESULT PASS" "$dir/qemu.log"; then
    echo "$name: firmware run FAILED (qemu exit $rc)" >&2
    return 1
  fi
}

# The op-suite models with an int8 input or output.
op_suite_int8() {
  python3 - "$SHARED/op-suite" <<'PY'
import csv, os, sys
root = sys.argv[1]
for row in csv.DictReader(open(os.path.join(root, 'golden/tflm-x86_64/arena.csv'))):
    if row['invoke_ok'] == '1' and 'INT8' in row['inputs'] + row['outputs']:
        print(os.path.join(root, 'models', row['model']))
PY
}

failed=0; ran=0
for spec in "$@"; do
  case "$spec" in
    op-suite-int8)
      for model in $(op_suite_int8); do
        if ! err=$("$ARENAPLAN" run "$model" --kernels dsp 2>&1 >/dev/null); then
          echo "== $(basename "$model" .tflite): not run, the runtime cannot: $err"
          continue
        fi
        run_one "$model" model || failed=$((failed + 1))
        ran=$((ran + 1))
      done ;;
    all-kernels:*) run_one "$SHARED/models/${spec#all-kernels:}" all || failed=$((failed + 1)); ran=$((ran + 1)) ;;
    optimized:*)
      src="$SHARED/models/${spec#optimized:}"
      mkdir -p "$OUT/optimized"
      opt="$OUT/optimized/$(basename "$src" .tflite)_optimized.tflite"
      "$ARENAPLAN" optimize "$src" --for arenaplan --kernels dsp -o "$opt" >/dev/null
      # The point of this run: segments that stream on the device's kernels (and write their
      # outputs over their inputs' spent rows).
      overlaps=$("$ARENAPLAN" run "$opt" --kernels dsp --format json |
                 python3 -c 'import json,sys; print(json.load(sys.stdin)["stream_overlaps"])')
      echo "== $(basename "$opt" .tflite): $overlaps stream segments writing over their inputs"
      if [ "$overlaps" -gt 0 ]; then
        run_one "$opt" model "$src" || failed=$((failed + 1))
      else
        echo "$(basename "$opt" .tflite): optimize wrote no stream segment" >&2; failed=$((failed + 1))
      fi
      ran=$((ran + 1)) ;;
    *)
      [ -f "$SHARED/models/$spec" ] || { echo "missing $SHARED/models/$spec" >&2; exit 1; }
      run_one "$SHARED/models/$spec" model || failed=$((failed + 1)); ran=$((ran + 1)) ;;
  esac
done
echo "firmware: $ran models run, $failed failed"
if [ $failed -eq 0 ] && [ $ran -eq 0 ]; then
  echo "SKIP: no model the runtime can run yet"; exit 77   # e.g. op-suite kernels still pending
fi
[ $failed -eq 0 ]
