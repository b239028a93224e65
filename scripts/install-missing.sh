#!/bin/bash
# Installs those of the given Debian packages that are missing, with apt-get (through sudo when not root); names the
# make target that asks in its messages.
# usage: scripts/install-missing.sh TARGET PACKAGE...
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: scripts/install-missing.sh TARGET PACKAGE..." >&2; exit 2; }
target=$1; shift
missing=()
for package in "$@"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -gt 0 ] || exit 0
sudo=(); [ "$(id -u)" = 0 ] || sudo=(sudo)
echo "make $target: installing ${missing[*]}"
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" \
  || { "${sudo[@]}" apt-get update -q \
       && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"; } \
  || { echo "make $target: could not install ${missing[*]} (apt-get failed; see above)"; exit 1; }
