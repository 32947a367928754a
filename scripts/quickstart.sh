#!/usr/bin/env bash
# Command 1: install what is missing, build, and plan the arena of an example model the project
# writes itself (no ../shared needed).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh build
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DARENAPLAN_BUILD_TESTS=OFF -DARENAPLAN_BUILD_BENCH=OFF >/dev/null
cmake --build build --target arenaplan
./build/arenaplan demo -o build/demo.tflite
./build/arenaplan plan build/demo.tflite --planner best
