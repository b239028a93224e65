#!/bin/bash
# Removes under DESTDIR+PREFIX exactly what scripts/install-files.sh put there, all of share/tictactoe/, and the
# directories it created (its .installed-directories) when they are empty: never a directory that was there before.
# usage: scripts/uninstall.sh PREFIX [DESTDIR]
set -euo pipefail
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: scripts/uninstall.sh PREFIX [DESTDIR]" >&2; exit 2; }
prefix=$1 d=${2:-}
datadir=$prefix/share/tictactoe man1dir=$prefix/share/man/man1
created=""; [ -f "$d$datadir/.installed-directories" ] && created=$(cat "$d$datadir/.installed-directories")
rm -f "$d$prefix/bin/tictactoe" "$d$man1dir/tictactoe.1" "$d$man1dir"/tictactoe.*.1 \
  "$d$prefix/share/bash-completion/completions/tictactoe" "$d$prefix/share/zsh/vendor-completions/_tictactoe" \
  "$d$prefix/share/fish/vendor_completions.d/tictactoe.fish"
rm -rf "$d$datadir"
for dir in $(printf '%s\n' $created | sort -r); do
  if [ -d "$d$dir" ]; then rmdir --ignore-fail-on-non-empty "$d$dir"; fi
done
echo "uninstalled tictactoe from $d$prefix"
