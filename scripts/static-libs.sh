#!/bin/bash
# Links the archives of the C and C++ libraries the release binary takes in (libstdc++, libsodium, ncursesw, tinfo)
# into DIR, which the release link searches first (Package.swift), so that the binary loads only libc and libm. The
# toolchain's clang says where each archive is (else the system's c++). A missing archive is named with the package
# that brings it, and that library stays shared. BINARY is deleted when an archive is newer than it (a security update
# of libsodium-dev, say), so that the next build links it again: the build itself does not look at system libraries.
# usage: scripts/static-libs.sh DIR BINARY   (SWIFT: the swift whose clang to ask; default swift)
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: scripts/static-libs.sh DIR BINARY" >&2; exit 2; }
dir=$1 bin=$2
clang="$(dirname "$(readlink -f "$(command -v "${SWIFT:-swift}")")")/clang"
mkdir -p "$dir"
for name in libstdc++.a libsodium.a libncursesw.a libtinfo.a; do
  archive=$("$clang" -print-file-name="$name" 2>/dev/null || true)
  [ -f "$archive" ] || archive=$(c++ -print-file-name="$name" 2>/dev/null || true)
  link="$dir/$name"
  if [ -f "$archive" ]; then
    if [ "$(readlink "$link" || true)" != "$archive" ] || [ "$archive" -nt "$bin" ]; then
      ln -sfn "$archive" "$link"; rm -f "$bin"
    fi
  else
    case $name in libstdc++.a) package=g++;; libsodium.a) package=libsodium-dev;; *) package=libncurses-dev;; esac
    if [ -L "$link" ]; then rm -f "$link" "$bin"; fi
    echo "no $name found, so the release binary loads the shared library: install $package" \
      "(sudo apt-get install $package) to link it in"
  fi
done
