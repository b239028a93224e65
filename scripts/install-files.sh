#!/bin/bash
# Installs without building, under DESTDIR+PREFIX: bin/tictactoe (BINARY), share/tictactoe/ (a copy of Assets/ and
# VERSION, the version scripts/version.sh prints, which `tictactoe --version` reads), the
# man pages of MAN_DIR in share/man/man1/, and the bash, zsh and fish completions the binary writes, in Debian's
# places. The directories it creates are listed (without DESTDIR) in share/tictactoe/.installed-directories, for
# scripts/uninstall.sh to remove when empty.
# usage: scripts/install-files.sh BINARY MAN_DIR PREFIX [DESTDIR]
set -euo pipefail
[ $# -ge 3 ] && [ $# -le 4 ] || { echo "usage: scripts/install-files.sh BINARY MAN_DIR PREFIX [DESTDIR]" >&2; exit 2; }
bin=$1 man=$2 prefix=$3 d=${4:-}
[ -x "$bin" ] || { echo "make install-files: no binary at $bin (make install builds one)"; exit 1; }
[ -f "$man/tictactoe.1" ] || { echo "make install-files: no man pages in $man (make man makes them)"; exit 1; }
bindir=$prefix/bin datadir=$prefix/share/tictactoe man1dir=$prefix/share/man/man1
bashdir=$prefix/share/bash-completion/completions zshdir=$prefix/share/zsh/vendor-completions
fishdir=$prefix/share/fish/vendor_completions.d
record=$d$datadir/.installed-directories

old=""; [ -f "$record" ] && old=$(cat "$record")
new=$(LC_ALL=C install -d -v "$d$bindir" "$d$datadir" "$d$man1dir" "$d$bashdir" "$d$zshdir" "$d$fishdir" \
  | sed -n "s/^install: creating directory '\(.*\)'$/\1/p" | sed "s|^$d||")
install -m 755 "$bin" "$d$bindir/tictactoe"
rm -rf "$d$datadir"; mkdir -p "$d$datadir"; cp -R Assets/. "$d$datadir/"
"$(dirname "$0")/version.sh" > "$d$datadir/VERSION"
chmod -R u=rwX,go=rX "$d$datadir"
printf '%s\n' $old $new | { grep -v '^$' || true; } | sort -u > "$record"
rm -f "$d$man1dir/tictactoe.1" "$d$man1dir"/tictactoe.*.1
install -m 644 "$man"/tictactoe*.1 "$d$man1dir/"
"$bin" --generate-completion-script bash > "$d$bashdir/tictactoe"
"$bin" --generate-completion-script zsh > "$d$zshdir/_tictactoe"
"$bin" --generate-completion-script fish > "$d$fishdir/tictactoe.fish"
chmod 644 "$d$bashdir/tictactoe" "$d$zshdir/_tictactoe" "$d$fishdir/tictactoe.fish"
echo "installed $d$bindir/tictactoe, $d$datadir/, $(ls "$man"/tictactoe*.1 | wc -l) man pages in $d$man1dir" \
  "and the bash, zsh and fish completions"
