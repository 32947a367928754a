#!/usr/bin/env bash
# The three ways to use arenaplan from another project, checked from a plain (unsanitized) build:
#   1. cmake --install + a consumer project (tests/package/consumer) built and run against it;
#   2. the device libraries configured with cmake/arm-none-eabi.cmake, installed, and a Cortex-M
#      firmware project (tests/package/device_consumer) linked against them (needs arm-none-eabi-g++);
#   3. the Python package installed with pip (Debian's setuptools and pybind11, no network) into a
#      fresh virtual environment over Debian's /usr/bin/python3, then pytest (tests/python).
# usage: scripts/test-packages.sh BUILD_DIR   (configured with -DARENAPLAN_PYTHON=ON; the arenaplan
# binary and the libraries built). ARENAPLAN_PYTHON overrides the interpreter.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=$(cd "$1" && pwd)
py=${ARENAPLAN_PYTHON:-/usr/bin/python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cli="$build/arenaplan"
"$cli" demo -o "$work/demo.tflite" >/dev/null
json() { "$py" -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

echo "== CMake package: cmake --install, then a consumer project against it"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S tests/package/consumer -B "$work/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/consumer" >/dev/null
got=$("$work/consumer/consumer")
want="head $("$cli" plan "$work/demo.tflite" --planner best --format json | json 'd["arena_bytes"], "bound", d["lower_bound_bytes"], "peak-step", d["peak"]["step"]' | tr -d ',')"
want="$want tflm $("$cli" size "$work/demo.tflite" --target tflm-cortex-m --format json | json 'd["min_arena_bytes"]')"
want="$want runtime $("$cli" run "$work/demo.tflite" --format json | json 'd["min_arena_bytes"]')"
echo "consumer: $got"
[ "$got" = "$want" ] || { echo "expected: $want" >&2; exit 1; }

if command -v arm-none-eabi-g++ >/dev/null; then
  echo "== Cortex-M: the runtime package built with cmake/arm-none-eabi.cmake, a firmware project against it"
  cmake -S . -B "$work/device" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$root/cmake/arm-none-eabi.cmake" \
        -DCMAKE_BUILD_TYPE=MinSizeRel >/dev/null
  cmake --build "$work/device" -j "$(nproc)" >/dev/null
  cmake --install "$work/device" --prefix "$work/device-prefix" >/dev/null
  cmake -S tests/package/device_consumer -B "$work/device-consumer" -G Ninja \
        -DCMAKE_TOOLCHAIN_FILE="$root/cmake/arm-none-eabi.cmake" -DCMAKE_FIND_ROOT_PATH="$work/device-prefix" >/dev/null
  cmake --build "$work/device-consumer" >/dev/null
  elf="$work/device-consumer/device_consumer"
  arm-none-eabi-readelf -h "$elf" | grep -q "Machine:.*ARM" || { echo "not an ARM executable" >&2; exit 1; }
  if arm-none-eabi-nm "$elf" | grep -qwE "malloc|_malloc_r|_sbrk"; then echo "device consumer links malloc" >&2; exit 1; fi
  arm-none-eabi-size "$elf" | tail -1
elif [ "${CI:-}" = "true" ]; then
  echo "arm-none-eabi-g++ not found; required under CI" >&2; exit 1
fi

echo "== Python package: pip install into a fresh venv over $py, then pytest"
"$py" -m venv --system-site-packages --without-pip "$work/venv"
ARENAPLAN_BUILD_DIR="$build" "$work/venv/bin/python" -m pip install --no-build-isolation --no-deps --no-index \
    --quiet --disable-pip-version-check "$root"
(cd "$work" && ARENAPLAN_CLI="$cli" ARENAPLAN_SHARED="${ARENAPLAN_SHARED:-$root/../shared}" \
    "$work/venv/bin/python" -m pytest -q -p no:cacheprovider "$root/tests/python")
