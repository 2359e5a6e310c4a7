#!/usr/bin/env bash
# The GPU host has CUDA and CMake but not nlohmann_json or Catch2 v2: copy this
# machine's Debian packages of them into build-deps/ (git-ignored), which the
# device call carries and CMake finds through -DCMAKE_PREFIX_PATH.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
d=$root/build-deps
rm -rf "$d"
mkdir -p "$d/include" "$d/share/cmake" "$d/lib/cmake"
cp -r /usr/include/nlohmann "$d/include/"
cp -r /usr/share/cmake/nlohmann_json "$d/share/cmake/"
cp -r /usr/include/catch2 "$d/include/"
cp -r /usr/lib/cmake/Catch2 "$d/lib/cmake/"
