#!/usr/bin/env bash
# Installs the Debian packages arenaplan needs, only those that are missing.
#   install-deps.sh build    building the CLI and the libraries (scripts/quickstart.sh)
#   install-deps.sh python   build + the Python package (pip, setuptools, pybind11, matplotlib)
#   install-deps.sh test     everything scripts/test.sh runs (default): the above, GoogleTest and
#                            Google Benchmark, clang (fuzzing), the ARM toolchain and qemu (Cortex-M),
#                            Chromium (the HTML report check) and pytest
set -euo pipefail
group=${1:-test}
build=(cmake ninja-build g++ pkg-config flatbuffers-compiler libflatbuffers-dev libcli11-dev nlohmann-json3-dev)
python=(python3 python3-dev python3-pip python3-setuptools python3-wheel python3-pybind11 pybind11-dev
        python3-matplotlib)
test=(libgtest-dev libgmock-dev libbenchmark-dev clang-14 libclang-rt-14-dev gcc-arm-none-eabi libnewlib-arm-none-eabi
      libstdc++-arm-none-eabi-newlib qemu-system-arm chromium python3-pytest)
case "$group" in
  build) pkgs=("${build[@]}") ;;
  python) pkgs=("${build[@]}" "${python[@]}") ;;
  test) pkgs=("${build[@]}" "${python[@]}" "${test[@]}") ;;
  *) echo "usage: $0 [build|python|test]" >&2; exit 2 ;;
esac
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
