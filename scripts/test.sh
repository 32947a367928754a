#!/usr/bin/env bash
# Command 2: install what is missing, then build and run every test: the whole suite under
# AddressSanitizer + UBSan (with the HTML report in headless Chromium), the two fuzzers (host tools,
# embedded runtime) for a bounded time each (ARENAPLAN_FUZZ_SECONDS, default 30), the Cortex-M
# firmware under qemu, and the packages (CMake, Cortex-M, Python) from a plain build. Set
# ARENAPLAN_SHARED to use a ../shared elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test
jobs=$(nproc)
# The sanitizer trees compile at -O1 with line tables only (-g1): enough for symbolized ASan/UBSan
# reports, and it keeps the whole run inside CI's 40 minutes on 2 cores.
san_flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
           "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG")

fuzz_seconds=${ARENAPLAN_FUZZ_SECONDS:-30}
CC=clang-14 CXX=clang++-14 cmake -S . -B build-fuzz -G Ninja "${san_flags[@]}" \
      -DARENAPLAN_FUZZ=ON -DARENAPLAN_BUILD_TESTS=OFF -DARENAPLAN_BUILD_BENCH=OFF >/dev/null
cmake --build build-fuzz --target model_fuzzer runtime_fuzzer -j "$jobs"
echo "== fuzz: model reader + lifetimes + both greedy planners + TFLM sizing (${fuzz_seconds} s)"
scripts/run-fuzzer.sh build-fuzz/fuzz/model_fuzzer "$fuzz_seconds"
echo "== fuzz: runtime model loading + AllocateTensors + Invoke (${fuzz_seconds} s)"
scripts/run-fuzzer.sh build-fuzz/fuzz/runtime_fuzzer "$fuzz_seconds"

echo "== no-heap test (needs its own malloc, so it runs from a build without sanitizers)"
# -O1 without debug info: this tree is only run (no-heap test, packages), and it compiles in about
# a third less time than -O2 -g (best.cc 3.2 s -> 1.9 s, html_report.cc 11.8 s -> 7.4 s here).
cmake -S . -B build-noheap -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -DNDEBUG" \
      "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -DNDEBUG" -DARENAPLAN_BUILD_BENCH=OFF \
      -DARENAPLAN_PYTHON=ON -DPython_EXECUTABLE=/usr/bin/python3 >/dev/null
cmake --build build-noheap --target runtime_corpus_tests arenaplan _arenaplan -j "$jobs"
build-noheap/tests/runtime_corpus_tests --gtest_filter='NoHeapTest.*'

echo "== packages from the same plain build: CMake install + consumer, Cortex-M runtime package, Python"
scripts/test-packages.sh build-noheap

echo "== build + unit, corpus and firmware tests (ASan + UBSan)"
cmake -S . -B build-asan -G Ninja "${san_flags[@]}" -DARENAPLAN_SANITIZE=ON \
      -DARENAPLAN_BUILD_BENCH=OFF >/dev/null
cmake --build build-asan -j "$jobs"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
cd build-asan
ctest --output-on-failure -j "$jobs" --timeout 900
