#!/usr/bin/env bash
# Runs a libFuzzer binary for a bounded time from a seed corpus: files matching PATTERN (default
# *.tflite) under ../shared/SEEDS (default models) when present, else none (the fuzzer starts from
# nothing). Usage: run-fuzzer.sh FUZZER [SECONDS] [SEEDS] [PATTERN]
set -euo pipefail
fuzzer=$1; seconds=${2:-60}; seed_dir=${3:-models}; pattern=${4:-*.tflite}
root="$(cd "$(dirname "$0")/.." && pwd)"
shared=${ARENAPLAN_SHARED:-$root/../shared}
work=$(mktemp -d); seeds=$(mktemp -d)
trap 'rm -rf "$work" "$seeds"' EXIT
if [ -d "$shared/$seed_dir" ]; then
  find "$shared/$seed_dir" -name "$pattern" -size -400k -exec cp {} "$seeds/" \;
elif [ "${CI:-}" = "true" ]; then
  echo "run-fuzzer: ../shared not found (set ARENAPLAN_SHARED); required under CI" >&2; exit 1
fi
"$fuzzer" -max_total_time="$seconds" -max_len=1048576 -rss_limit_mb=4096 -print_final_stats=1 "$work" "$seeds"
