#!/bin/bash
# Prints the version of this checkout: VERSION as written when HEAD carries a v* tag (a release: vVERSION), else
# VERSION+git.N.HASH, N the commits since the newest v* tag before HEAD (or, with no such tag, since the first
# commit: every commit then counts) and HASH HEAD's short hash. Outside a git checkout: VERSION as written.
# usage: scripts/version.sh
set -euo pipefail
[ $# -eq 0 ] || { echo "usage: scripts/version.sh" >&2; exit 2; }
cd "$(dirname "$0")/.."
version=$(tr -d '[:space:]' < VERSION)
git rev-parse --git-dir >/dev/null 2>&1 || { echo "$version"; exit 0; }
hash=$(git rev-parse --short HEAD)
if described=$(git describe --tags --long --match 'v[0-9]*' 2>/dev/null); then
  count=$(sed 's/.*-\([0-9]*\)-g[0-9a-f]*$/\1/' <<<"$described")
else
  count=$(git rev-list --count HEAD)
fi
if [ "$count" = 0 ]; then echo "$version"; else echo "$version+git.$count.$hash"; fi
