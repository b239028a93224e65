#!/bin/bash
# For what needs the LAN lab (network namespaces, so root): as root, runs COMMAND (or says that WHAT runs); otherwise
# says that WHAT is skipped and how to include it, and with CI=true, where it must run, fails.
# usage: scripts/needs-root.sh TARGET WHAT HOW [COMMAND...]
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: scripts/needs-root.sh TARGET WHAT HOW [COMMAND...]" >&2; exit 2; }
target=$1 what=$2 how=$3; shift 3
if [ "$(id -u)" = 0 ]; then
  if [ $# -gt 0 ]; then exec "$@"; fi
  echo "make $target: running $what too (root: network namespaces with their own avahi-daemon)"
elif [ "${CI:-}" = true ]; then
  echo "make $target: $what need root (the LAN lab), and in CI (CI=true) they must run: run as root"; exit 1
else
  echo "make $target: $what will be SKIPPED: they need root for the LAN lab's network namespaces;"
  echo "    run '$how' to include them"
fi
