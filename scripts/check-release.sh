#!/bin/bash
# Checks the release binary before make install ships it: it loads neither the Swift runtime (--static-swift-stdlib
# links it in) nor a library whose archive DIR holds (scripts/static-libs.sh). Either means it was linked without
# the release flags (as `make man CONFIG=release` builds the release product) or with the system's library directory
# before DIR (as a pkg-config entry in Package.swift puts it).
# usage: scripts/check-release.sh BINARY DIR
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: scripts/check-release.sh BINARY DIR" >&2; exit 2; }
bin=$1 dir=$2
command -v readelf >/dev/null || {
  echo "make install: readelf (Debian package binutils) checks the binary before it is installed:" \
    "sudo apt-get install binutils"; exit 1; }
needed=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
if grep -q '^libswiftCore\.so' <<<"$needed"; then
  echo "make install: $bin loads libswiftCore.so: something built the release product without --static-swift-stdlib" \
    "(make man CONFIG=release does). Remove it (rm $bin) and run make install again."; exit 1
fi
for archive in "$dir"/*.a; do
  [ -e "$archive" ] || continue
  shared=$(basename "${archive%.a}.so")
  if grep -q "^$shared" <<<"$needed"; then
    echo "make install: $bin loads $shared though $archive is there to link it in: something put the system's" \
      "library directory before $dir on the link's path (a pkg-config entry in Package.swift does)."; exit 1
  fi
done
echo "make install: $bin loads only $(tr '\n' ' ' <<<"$needed")"
