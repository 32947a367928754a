#!/usr/bin/env bash
# Command 2: install what is missing, then build and run every test: the whole suite under
# AddressSanitizer + UBSan (with the HTML report in headless Chromium), the three fuzzers (host
# tools, embedded runtime, CSV problems) for a bounded time each (ARENAPLAN_FUZZ_SECONDS, default
# 30), the Cortex-M firmware under qemu, and the packages (CMake, Cortex-M, Python) from a plain
# build. Set ARENAPLAN_SHARED to use a ../shared elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test
jobs=$(nproc)
phase() { echo "== [$((SECONDS / 60)) min $((SECONDS % 60)) s] $*"; }

# One sanitizer tree, built by clang: the tests and the fuzzers (whose libraries carry libFuzzer's
# coverage hooks, ARENAPLAN_FUZZ) come from the same objects, so CI compiles the sources with
# sanitizers once. -O1 with line tables only (-g1): enough for symbolized ASan/UBSan reports, and it
# keeps the whole run inside CI's 40 minutes on 2 cores.
phase "build: unit, corpus and firmware tests and the fuzzers (clang, ASan + UBSan)"
CC=clang-14 CXX=clang++-14 cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
      -DARENAPLAN_SANITIZE=ON -DARENAPLAN_FUZZ=ON -DARENAPLAN_BUILD_BENCH=OFF >/dev/null
cmake --build build-asan -j "$jobs"

fuzz_seconds=${ARENAPLAN_FUZZ_SECONDS:-30}
phase "fuzz: model reader + lifetimes + both greedy planners + TFLM sizing (${fuzz_seconds} s)"
scripts/run-fuzzer.sh build-asan/fuzz/model_fuzzer "$fuzz_seconds"
phase "fuzz: runtime model loading + AllocateTensors + Invoke (${fuzz_seconds} s)"
scripts/run-fuzzer.sh build-asan/fuzz/runtime_fuzzer "$fuzz_seconds"
phase "fuzz: CSV problem reader + every planner + CSV writer (${fuzz_seconds} s)"
scripts/run-fuzzer.sh build-asan/fuzz/csv_fuzzer "$fuzz_seconds" benchmarks '*.csv'

# A plain tree (GCC, the compiler users build with): the no-heap test needs its own malloc, which
# the sanitizers own, and the packages are checked from it. -O1 without debug info: it is only run,
# and it compiles in about a third less time than -O2 -g.
phase "build: no-heap test, CLI and Python module (GCC, no sanitizers)"
cmake -S . -B build-noheap -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -DNDEBUG" \
      "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -DNDEBUG" -DARENAPLAN_BUILD_BENCH=OFF \
      -DARENAPLAN_PYTHON=ON -DPython_EXECUTABLE=/usr/bin/python3 >/dev/null
cmake --build build-noheap --target runtime_no_heap_tests arenaplan _arenaplan -j "$jobs"
phase "no-heap test"
build-noheap/tests/runtime_no_heap_tests

phase "packages from the plain build: CMake install + consumer, Cortex-M runtime package, Python"
scripts/test-packages.sh build-noheap

phase "unit, corpus, browser and firmware tests (ASan + UBSan)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd build-asan && ctest --output-on-failure -j "$jobs" --timeout 900)
phase "all passed"
