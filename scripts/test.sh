#!/usr/bin/env bash
# Command 2: install what is missing, then build and run every test: the whole suite under
# AddressSanitizer + UBSan (with the HTML report in headless Chromium), the model-reader fuzzer for a
# bounded time, the Cortex-M firmware under qemu, and the packages (CMake, Cortex-M, Python) from a
# plain build. Set ARENAPLAN_SHARED to use a ../shared elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test
jobs=$(nproc)

echo "== fuzz: model reader + lifetimes + planners + TFLM sizing (${ARENAPLAN_FUZZ_SECONDS:-60} s)"
CC=clang-14 CXX=clang++-14 cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DARENAPLAN_FUZZ=ON -DARENAPLAN_BUILD_TESTS=OFF -DARENAPLAN_BUILD_BENCH=OFF >/dev/null
cmake --build build-fuzz --target model_fuzzer -j "$jobs"
scripts/run-fuzzer.sh build-fuzz/fuzz/model_fuzzer "${ARENAPLAN_FUZZ_SECONDS:-60}"

echo "== no-heap test (needs its own malloc, so it runs from a build without sanitizers)"
cmake -S . -B build-noheap -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DARENAPLAN_BUILD_BENCH=OFF \
      -DARENAPLAN_PYTHON=ON -DPython_EXECUTABLE=/usr/bin/python3 >/dev/null
cmake --build build-noheap --target runtime_corpus_tests arenaplan _arenaplan -j "$jobs"
build-noheap/tests/runtime_corpus_tests --gtest_filter='NoHeapTest.*'

echo "== packages from the same plain build: CMake install + consumer, Cortex-M runtime package, Python"
scripts/test-packages.sh build-noheap

echo "== build + unit, corpus and firmware tests (ASan + UBSan)"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DARENAPLAN_SANITIZE=ON \
      -DARENAPLAN_BUILD_BENCH=OFF >/dev/null
cmake --build build-asan -j "$jobs"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
cd build-asan
ctest --output-on-failure -j "$jobs" --timeout 900
