#!/bin/bash
# Builds OUT_DIR/tictactoe_VERSION_ARCH.deb from BINARY and the man pages of MAN_DIR, laid out under /usr by
# scripts/install-files.sh (the binary stripped, the man pages compressed), with the copyright (from LICENSE), a
# changelog and the control file. VERSION is scripts/version.sh's. Depends: the libraries the binary loads
# (dpkg-shlibdeps) and libdns_sd, which the binary loads with dlopen when it first uses Bonjour; Recommends:
# avahi-daemon, without which Bonjour finds nothing. Maintainer: DEB_MAINTAINER, else git's user.name and
# user.email. With --lintian, lintian checks the package (fails on an error or a warning); the overrides it honors are
# in debian/lintian-overrides, each with its reason. Prints the package's path last.
# usage: scripts/deb.sh [--lintian] BINARY MAN_DIR OUT_DIR
set -euo pipefail
usage() { echo "usage: scripts/deb.sh [--lintian] BINARY MAN_DIR OUT_DIR" >&2; exit 2; }
lint=false; [ "${1:-}" = --lintian ] && { lint=true; shift; }
[ $# -eq 3 ] || usage
bin=$1 man=$2 out=$3
scripts=$(dirname "$0")
for tool in dpkg-deb dpkg-shlibdeps; do
  command -v $tool >/dev/null || { echo "make deb: $tool is missing: sudo apt-get install dpkg-dev"; exit 1; }
done
grep -q 'Apache License' LICENSE && grep -q 'Version 2.0, January 2004' LICENSE \
  || { echo "make deb: LICENSE is not the Apache License 2.0 that the package's copyright names"; exit 1; }
maintainer=${DEB_MAINTAINER:-}
if [ -z "$maintainer" ]; then
  name=$(git config user.name || true) email=$(git config user.email || true)
  [ -n "$name" ] && [ -n "$email" ] || { echo "make deb: no maintainer: set DEB_MAINTAINER='Name <e-mail>'" \
    "or git config user.name and user.email"; exit 1; }
  maintainer="$name <$email>"
fi
version=$("$scripts/version.sh") arch=$(dpkg --print-architecture)
deb=$out/tictactoe_${version}_${arch}.deb

umask 022
mkdir -p "$out"
work=$(mktemp -d "$(realpath "$out")/.deb.XXXXXX"); trap 'rm -rf "$work"' EXIT
root=$work/root doc=$work/root/usr/share/doc/tictactoe
mkdir -p "$root/DEBIAN" "$doc" "$root/usr/share/lintian/overrides" "$work/debian"
"$scripts/install-files.sh" "$bin" "$man" /usr "$root" >/dev/null
rm "$root/usr/share/tictactoe/.installed-directories"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/tictactoe"
gzip -9n "$root"/usr/share/man/man1/*.1
sed -i '1{/^#!/d}' "$root/usr/share/bash-completion/completions/tictactoe"  # bash sources it: no #! line
cp debian/lintian-overrides "$root/usr/share/lintian/overrides/tictactoe"

last=$(git log -1 --format=%cd --date=format:%Y 2>/dev/null || date +%Y)
first=$(git log --format=%cd --date=format:%Y 2>/dev/null | tail -1 || true)
years=${first:-$last}; [ "$years" = "$last" ] || years="$years-$last"
cat > "$doc/copyright" <<COPYRIGHT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: tictactoe

Files: *
Copyright: $years the tictactoe authors (git log names them)
License: Apache-2.0

License: Apache-2.0
 Licensed under the Apache License, Version 2.0 (the "License"); you may not
 use this software except in compliance with the License.
 .
 On Debian systems, the full text of the Apache License, Version 2.0 can be
 found in /usr/share/common-licenses/Apache-2.0.
COPYRIGHT
date=$(git log -1 --format=%cD 2>/dev/null || date -R)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo "a source tree without git")
printf 'tictactoe (%s) unstable; urgency=medium\n\n  * Built from %s.\n\n -- %s  %s\n' \
  "$version" "$commit" "$maintainer" "$date" | gzip -9n > "$doc/changelog.gz"

# dpkg-shlibdeps reads debian/control of its working directory. The debug build's Swift libraries belong to no
# package (--ignore-missing-info); the release build loads only libc and libm (scripts/check-release.sh).
printf 'Source: tictactoe\n\nPackage: tictactoe\nArchitecture: any\n' > "$work/debian/control"
substvars=$(cd "$work" && dpkg-shlibdeps -O --ignore-missing-info -e"$root/usr/bin/tictactoe" 2>"$work/shlibdeps.err") \
  || { cat "$work/shlibdeps.err"; echo "make deb: dpkg-shlibdeps failed (above)"; exit 1; }
shlibs=$(sed -n 's/^shlibs:Depends=//p' <<<"$substvars")
[ -n "$shlibs" ] || { echo "make deb: dpkg-shlibdeps found no library the binary loads"; exit 1; }
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
cat > "$root/DEBIAN/control" <<CONTROL
Package: tictactoe
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(du -sk "$root/usr" | cut -f1)
Depends: $shlibs, libavahi-compat-libdnssd1
Recommends: avahi-daemon
Suggests: python3
Section: games
Priority: optional
Description: terminal tic-tac-toe for two players on a local network
 Play the computer, or another player on the same network: one hosts a game,
 advertised with Bonjour (Avahi), and the other lists the games and joins one.
 A private game is paired with a code the two players share, and encrypted.
 Scripts and engines can play without a terminal, with transcripts as text or
 JSON lines.
CONTROL
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
if $lint; then
  command -v lintian >/dev/null || { echo "make deb: lintian is missing: sudo apt-get install lintian"; exit 1; }
  lintian --fail-on error,warning --info "$deb"
fi
echo "$deb"
