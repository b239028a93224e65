# tictactoe — terminal tic-tac-toe for two players on a LAN.
#
#   make            build (debug)
#   make play       install what is missing, build, and play
#   make test       install what is missing, build, make man CONFIG=debug (for InstallTests), and run every test
#   make deps       install the Debian packages the build and the tests need (sudo when not root)
#   make install    man pages (debug build), release build, then install-files: PREFIX (default /usr/local; DESTDIR honoured) gets
#                   bin/tictactoe, share/tictactoe/ (a copy of Assets/), share/man/man1/tictactoe*.1 (from the
#                   argument-parser definitions) and the bash, zsh and fish completions in Debian's places
#   make install-files  copies INSTALL_BIN and the man pages in MANPAGES without building (what InstallTests runs
#                   into a temporary prefix, with the debug binary and .build/man/debug)
#   make uninstall  removes exactly what install put there, and the directories it created if they are empty
#   make man        man pages from the argument-parser definitions (its generate-manual plugin) in .build/man/CONFIG
#                   (CONFIG=debug, as make test and make install do; CONFIG=release builds the release product
#                   again without RELEASE_FLAGS, over the binary make install and make bench use)
#   make bench      release build, then one table of the app's figures against anchors measured in the same run
#                   (move round trip vs a C ping-pong, loopback and the LAN lab; throughput; CPU per move; discovery
#                   vs avahi-publish/avahi-browse; cold start vs /bin/true; first TUI frame vs dialog; memory; idle
#                   TUI), TLS and plaintext, with the goals of issue 15; JSON and an SVG chart in .build/bench/; then
#                   the in-process figures (ordo-one/benchmark). BIN=path measures another tictactoe binary,
#                   BENCH_LABEL=name names the results; measured, never asserted; the lab needs root (else skipped)
#   make bench-compare OLD=a.json NEW=b.json   two runs side by side (before and after)
#   make link-order  profile the release binary under callgrind (a loopback match, --version, --help, the menu) and
#                   rewrite Sources/tictactoe/link-order.txt, the functions the release link lays out first
#   make fuzz       fuzz the wire codec with libFuzzer for SECONDS (default 60): Fuzz/, built apart in .build-fuzz
#   make demo       the deferred-prompting demo in tmux (root: the LAN lab); SCENE=deferred|eager|noauth|waiting|private|languages|lobby,
#                   AUTO=1 plays it for you; make demo-check plays every scene unattended (docs/DEMO.md)
#   make demo-check play every scene unattended and compare its screens with docs/demo/*.txt (root; part of test)
#   make demo-docs  play every scene and regenerate docs/demo/*.txt and their copies in docs/DEMO.md (root)
#   Tests/lab/lan   the LAN lab (network namespaces with their own avahi-daemon): see docs/LAN-LAB.md

SWIFT   ?= swift
PREFIX  ?= /usr/local
DESTDIR ?=
SCENE   ?= deferred
AUTO    ?=
BIN      = .build/debug/tictactoe
SECONDS ?= 60
# The release binary (make install, make bench): the Swift runtime and FoundationEssentials linked in statically
# (issue 15: no dynamic loading of the Swift libraries at start, only the pages used resident), with no $ORIGIN run
# path (nothing is loaded from beside the binary: the loader looked there first for each of its 7 libraries, 24 failed
# lookups at every start). Every function, C or Swift, in a section of its own (-ffunction-sections for the C
# targets, BoringSSL above all; -function-sections, a frontend flag, for Swift, whose objects otherwise keep a
# file's internal and private functions in one .text), so that the link can put the functions that run together
# (Sources/tictactoe/link-order.txt, make link-order): without it the objects' whole text came along (the C targets:
# 1.3 MB less resident for a networked host; Swift: 0.4 MB less code, ~0.6 MB less resident for a joiner, 15.0-15.6
# against 15.8-16.3 MB with the page cache emptied before each). Only the tictactoe product is built: the test
# support target links XCTest, which has no static library.
# The C++ standard library too (the Swift runtime's and BoringSSL's): the static runtime's link arguments ask for
# -lstdc++, which finds libstdc++.so; Package.swift puts STATIC_LIB_DIR first on the release link's library path,
# and make release-setup links the toolchain's libstdc++.a there (its C++ compiler's, where the link would otherwise
# find the shared one). Loading libstdc++.so relocated 5,000 of its symbols and kept ~1 MB resident at every start:
# cold start 3.8 → 3.0 ms, 0.5 MB less resident. Without a libstdc++.a the link takes the shared library, as before.
# And so are libsodium, ncursesw and tinfo (their -dev packages ship the archives; the link takes only the objects
# used, and they are laid out by link-order.txt with the rest): the loader no longer opens, maps and relocates three
# more libraries at every start, most of whose pages a joiner never uses (a joiner, TLS, page cache emptied first:
# 11.80-11.99 → 11.14-11.46 MB peak; the menu's first frame 3.87 → 3.52 ms, interleaved runs), and libgcc's unwinder
# comes from libgcc_eh.a (-static-libgcc, Package.swift). libm and libc stay shared: glibc's libm.a needs libc's
# internals. A missing archive leaves that library shared, as before. (The directory's old name, static-libstdc++,
# is no longer searched.)
STATIC_LIB_DIR = .build/static-libs
STATIC_C_LIBS = libsodium.a libncursesw.a libtinfo.a
RELEASE_FLAGS ?= --static-swift-stdlib --disable-local-rpath -Xcc -ffunction-sections \
                 -Xswiftc -Xfrontend -Xswiftc -function-sections
RELEASE_BUILD  = $(SWIFT) build -c release $(RELEASE_FLAGS) --product tictactoe
# make bench: the binary to measure (default: this checkout's release build), the results' name (default: the
# commit), extra driver options (--no-lab, --quick).
BIN_BENCH   ?= $(if $(filter command line environment,$(origin BIN)),$(BIN),)
BENCH_LABEL ?=
BENCH_ARGS  ?=
BENCH_BUILD  = $(SWIFT) build --package-path Benchmarks --scratch-path "$(CURDIR)/.build-bench" -c release --product bench

# Build: ncursesw, Avahi's dns_sd compatibility library and libsodium (system library targets; no pkg-config: see
# CSodium in Package.swift). The dns_sd library itself (libavahi-compat-libdnssd1, a dependency of the -dev package) is not linked:
# the Bonjour module loads it when Bonjour is first used.
# Tests: tmux (the real TUI in a terminal), avahi-daemon, avahi-utils, dbus, iproute2 (the LAN lab), procps,
# strace (what a process sends before permission), tcpdump (what an eavesdropper sees of a game), man-db (the
# installed man page rendered with man -l), python3 (the sample engine Assets/engines/perfect.py, standard library
# only, which GameEnginesTests plays).
DEB_PACKAGES = libncurses-dev libavahi-compat-libdnssd-dev libavahi-common-dev libsodium-dev tmux avahi-daemon avahi-utils dbus iproute2 procps strace tcpdump man-db python3

# make bench only: whole-process timings, the first-frame anchor, profiles; plus the lab's (DEB_PACKAGES) and a C
# compiler.
BENCH_PACKAGES = hyperfine dialog linux-perf gcc avahi-daemon avahi-utils dbus iproute2 procps
# make link-order only: callgrind, objcopy (binutils), the menu in tmux, the profiles read by python3.
LINK_ORDER_PACKAGES = valgrind binutils tmux python3

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all build deps check-swift play test lab-check demo demo-check demo-docs help-docs man install install-files \
	uninstall bench bench-compare bench-deps link-order fuzz clean release-setup

all: build

# Installs the Debian packages of the list $(1) that are missing (through sudo when not root), naming make $(2).
define install_missing
	@missing=""; \
	for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make $(2): installing$$missing"; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing \
	  || { $(SUDO) apt-get update -q && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; } \
	  || { echo "make $(2): could not install$$missing (apt-get failed; see above)"; exit 1; }; \
	fi
endef

check-swift:
	@command -v $(SWIFT) >/dev/null 2>&1 || { \
	  echo "make: no Swift toolchain found: install Swift 6 (https://www.swift.org/install/linux/) and put it on PATH."; \
	  exit 1; }

deps:
	$(call install_missing,$(DEB_PACKAGES),deps)

build: check-swift
	$(SWIFT) build

play: deps build
	@$(BIN)

# The LAN lab tests (Tests/LabTests: real avahi-daemons in network namespaces, Tests/lab/lan) need root. Without
# root they are skipped with the reason; with CI=true a skip is a failure (the test target fails itself, and so
# does lab-check).
test: deps check-swift
	$(SWIFT) build --build-tests
	@$(MAKE) --no-print-directory man CONFIG=debug
	@$(MAKE) --no-print-directory lab-check
	@$(MAKE) --no-print-directory demo-check
	$(SWIFT) test --skip-build --disable-swift-testing

lab-check:
	@if [ "$$(id -u)" = 0 ]; then \
	  echo "make test: running the LAN lab tests too (root: network namespaces with their own avahi-daemon)"; \
	elif [ "$$CI" = true ]; then \
	  echo "make test: the LAN lab tests need root, and in CI (CI=true) they must run: run as root"; exit 1; \
	else \
	  echo "make test: the LAN lab tests (Tests/LabTests) will be SKIPPED: they need root for network namespaces;"; \
	  echo "           run 'sudo make test' to include them"; \
	fi

# The deferred-prompting demo (docs/DEMO.md): host-a's and host-b's TicTacToe in the LAN lab, with a narration of
# every call to Avahi and of the privacy log, in tmux. Needs root (the lab) and a terminal.
demo: deps build
	@Tests/demo/demo $(SCENE) $(if $(filter 1 yes true,$(AUTO)),--auto)

# Plays every scene unattended, checks each screen, and compares the screens with the committed docs/demo/*.txt
# (normalized: paths, times, durations, pids; the narration's order within a step does not count); writes nothing in
# the checkout. A difference fails, with a diff, and `sudo make demo-docs` regenerates the screens when it is
# intended. Needs root (the lab): without root it is skipped with the reason, and with CI=true a skip is a failure
# (as lab-check).
demo-check: deps build
	@if [ "$$(id -u)" = 0 ]; then \
	  TICTACTOE_BIN="$(CURDIR)/$(BIN)" Tests/demo/check; \
	elif [ "$$CI" = true ]; then \
	  echo "make demo-check: the demo check needs root (the LAN lab), and in CI (CI=true) it must run: run as root"; exit 1; \
	else \
	  echo "make demo-check: the demo check (Tests/demo/check) was SKIPPED: it needs root for the LAN lab's network"; \
	  echo "                 namespaces; run 'sudo make demo-check' (or 'sudo make test') to include it"; \
	fi

# Plays every scene like demo-check, then writes the screens to docs/demo/ and refreshes their copies in
# docs/DEMO.md: run it (as root) when a change alters the screens on purpose, and commit the result.
demo-docs: deps build
	@TICTACTOE_BIN="$(CURDIR)/$(BIN)" Tests/demo/check --write

# Writes every command's full --help to docs/help/*.txt (what PinnedHelpTests compares): run it when a help text
# changes on purpose, and commit the result.
help-docs: build
	@Tests/help-docs "$(BIN)"

# Where `make install` puts things, under $(DESTDIR)$(PREFIX) (Debian's places for completions).
BINDIR      = $(PREFIX)/bin
DATADIR     = $(PREFIX)/share/tictactoe
MAN1DIR     = $(PREFIX)/share/man/man1
BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  = $(PREFIX)/share/zsh/vendor-completions
FISHCOMPDIR = $(PREFIX)/share/fish/vendor_completions.d
# What install-files copies: the binary and the directory of generated man pages (make install: the release ones).
CONFIG      ?= release
INSTALL_BIN ?= .build/release/tictactoe
MANPAGES    ?= .build/man/$(CONFIG)
# The directories install-files created (relative to DESTDIR), kept inside DATADIR for uninstall: only those are
# removed, and only when empty (never a /usr/local/bin that was there before).
CREATED_DIRS = .installed-directories

# The generate-manual plugin builds the package's products in CONFIG and writes one page per command
# (--multi-page: tictactoe.1, tictactoe.host.1, tictactoe.privacy.status.1, ...) in its work directory, which are
# copied to .build/man/CONFIG.
MAN_PLUGIN_OUT = .build/plugins/GenerateManual/outputs/tictactoe
man: check-swift
	rm -rf $(MAN_PLUGIN_OUT)
	@# The plugin builds without RELEASE_FLAGS: in the release directory, the next release build starts afresh.
	@if [ "$(CONFIG)" = release ]; then rm -f .build/release-flags; fi
	$(SWIFT) package plugin generate-manual --configuration $(CONFIG) --multi-page
	@[ -f $(MAN_PLUGIN_OUT)/tictactoe.1 ] || { \
	  echo "make man: the generate-manual plugin wrote no $(MAN_PLUGIN_OUT)/tictactoe.1"; exit 1; }
	@rm -rf .build/man/$(CONFIG) && mkdir -p .build/man/$(CONFIG) \
	  && cp $(MAN_PLUGIN_OUT)/tictactoe*.1 .build/man/$(CONFIG)/; \
	echo "make man: $$(ls .build/man/$(CONFIG) | wc -l) pages in .build/man/$(CONFIG)"

# Before each release build (a prerequisite of install, bench and link-order): the release directory emptied when
# RELEASE_FLAGS differ from those of the last release build made here, or are unknown (swiftc's incremental build
# does not compare -Xfrontend flags, and kept every object compiled without -function-sections; a release build
# made by hand, `swift build -c release ...`, is not recorded: the stamp only knows make's), and the archives
# linked in (STATIC_LIB_DIR, above): the toolchain's clang says where libstdc++.a is (else the system's c++) and
# where the C libraries' archives are; the binary is linked again when one of those is newer than it (a security
# update of libsodium-dev, say: the build itself does not look at system libraries).
release-setup: export RELEASE_FLAGS := $(RELEASE_FLAGS)
release-setup:
	@bindir="$$($(SWIFT) build -c release $$RELEASE_FLAGS --show-bin-path)"; stamp=.build/release-flags; \
	if [ -d "$$bindir" ] && [ "$$(cat "$$stamp" 2>/dev/null)" != "$$RELEASE_FLAGS" ]; then \
	  echo "make: RELEASE_FLAGS are not those of the last release build: building $$bindir again from scratch"; \
	  rm -rf "$$bindir"; fi; \
	mkdir -p .build && printf '%s\n' "$$RELEASE_FLAGS" > "$$stamp"; \
	clang="$$(dirname "$$(readlink -f "$$(command -v $(SWIFT))")")/clang"; \
	for name in libstdc++.a $(STATIC_C_LIBS); do \
	  archive=$$("$$clang" -print-file-name=$$name 2>/dev/null); \
	  [ -f "$$archive" ] || archive=$$(c++ -print-file-name=$$name 2>/dev/null); \
	  link="$(STATIC_LIB_DIR)/$$name"; \
	  if [ -f "$$archive" ]; then \
	    if [ "$$(readlink "$$link" 2>/dev/null)" != "$$archive" ] || [ "$$archive" -nt "$$bindir/tictactoe" ]; then \
	      mkdir -p $(STATIC_LIB_DIR) && ln -sfn "$$archive" "$$link" && rm -f "$$bindir/tictactoe"; fi; \
	  else \
	    case $$name in libstdc++.a) package=g++;; libsodium.a) package=libsodium-dev;; *) package=libncurses-dev;; esac; \
	    [ -L "$$link" ] && rm -f "$$link" "$$bindir/tictactoe"; \
	    echo "make: no $$name found, so the release binary loads the shared library:" \
	      "install $$package (sudo apt-get install $$package) to link it in statically"; fi; \
	done

# The man pages come from the debug build (their text does not depend on the configuration): the generate-manual
# plugin builds its product without RELEASE_FLAGS (swift package takes no --static-swift-stdlib), and in the release
# directory it replaced the statically linked binary and the C objects built with -ffunction-sections, which the next
# release build then took as up to date. The checks after the build keep it so: a binary that loads the Swift
# runtime, or a C library whose archive STATIC_LIB_DIR holds, as a shared library is not the one issue 15 measures.
install: check-swift release-setup
	@$(MAKE) --no-print-directory man CONFIG=debug
	$(RELEASE_BUILD)
	@bin="$$($(SWIFT) build -c release $(RELEASE_FLAGS) --show-bin-path)/tictactoe"; \
	case " $(RELEASE_FLAGS) " in *" --static-swift-stdlib "*) \
	  command -v readelf >/dev/null || { \
	    echo "make install: readelf (Debian package binutils) checks the binary before it is installed:" \
	      "sudo apt-get install binutils"; exit 1; }; \
	  needed=$$(readelf -d "$$bin") || exit 1; \
	  if printf '%s\n' "$$needed" | grep -q 'libswiftCore\.so'; then \
	    echo "make install: $$bin loads libswiftCore.so, though RELEASE_FLAGS link the Swift runtime statically:" \
	      "something rebuilt the release directory without them (make man CONFIG=release does)." \
	      "Remove it (rm -rf $$(dirname "$$bin")) and run make install again."; exit 1; fi;; esac; \
	for archive in $(STATIC_C_LIBS); do \
	  [ -e "$(STATIC_LIB_DIR)/$$archive" ] && command -v readelf >/dev/null || continue; shared="$${archive%.a}.so"; \
	  if readelf -d "$$bin" | grep -q "\[$$shared"; then \
	    echo "make install: $$bin loads $$shared though $(STATIC_LIB_DIR)/$$archive is there to link it in:" \
	      "something put the system's library directory before $(STATIC_LIB_DIR) on the link's path" \
	      "(a pkg-config entry in Package.swift does)."; exit 1; fi; \
	done; \
	$(MAKE) --no-print-directory install-files INSTALL_BIN="$$bin" MANPAGES=.build/man/debug

# No build here: INSTALL_BIN and MANPAGES must exist. The completions come from the binary being installed.
install-files:
	@[ -x "$(INSTALL_BIN)" ] || { \
	  echo "make install-files: no binary at $(INSTALL_BIN) (make install builds one)"; exit 1; }
	@[ -f "$(MANPAGES)/tictactoe.1" ] || { \
	  echo "make install-files: no man pages in $(MANPAGES) (make man CONFIG=$(CONFIG) makes them)"; exit 1; }
	@set -e; d="$(DESTDIR)"; \
	old=""; [ -f "$$d$(DATADIR)/$(CREATED_DIRS)" ] && old=$$(cat "$$d$(DATADIR)/$(CREATED_DIRS)"); \
	new=$$(LC_ALL=C install -d -v "$$d$(BINDIR)" "$$d$(DATADIR)" "$$d$(MAN1DIR)" "$$d$(BASHCOMPDIR)" "$$d$(ZSHCOMPDIR)" \
	  "$$d$(FISHCOMPDIR)" | sed -n "s/^install: creating directory '\(.*\)'$$/\1/p" | sed "s|^$$d||"); \
	install -m 755 "$(INSTALL_BIN)" "$$d$(BINDIR)/tictactoe"; \
	rm -rf "$$d$(DATADIR)"; mkdir -p "$$d$(DATADIR)"; cp -R Assets/. "$$d$(DATADIR)/"; \
	chmod -R u=rwX,go=rX "$$d$(DATADIR)"; \
	printf '%s\n' $$old $$new | grep -v '^$$' | sort -u > "$$d$(DATADIR)/$(CREATED_DIRS)"; \
	rm -f "$$d$(MAN1DIR)/tictactoe.1" "$$d$(MAN1DIR)"/tictactoe.*.1; \
	install -m 644 "$(MANPAGES)"/tictactoe*.1 "$$d$(MAN1DIR)/"; \
	"$(INSTALL_BIN)" --generate-completion-script bash > "$$d$(BASHCOMPDIR)/tictactoe"; \
	"$(INSTALL_BIN)" --generate-completion-script zsh > "$$d$(ZSHCOMPDIR)/_tictactoe"; \
	"$(INSTALL_BIN)" --generate-completion-script fish > "$$d$(FISHCOMPDIR)/tictactoe.fish"; \
	chmod 644 "$$d$(BASHCOMPDIR)/tictactoe" "$$d$(ZSHCOMPDIR)/_tictactoe" "$$d$(FISHCOMPDIR)/tictactoe.fish"; \
	echo "installed $$d$(BINDIR)/tictactoe, $$d$(DATADIR)/, $$(ls "$(MANPAGES)"/tictactoe*.1 | wc -l) man pages in" \
	  "$$d$(MAN1DIR) and the bash, zsh and fish completions"

uninstall:
	@set -e; d="$(DESTDIR)"; \
	created=""; [ -f "$$d$(DATADIR)/$(CREATED_DIRS)" ] && created=$$(cat "$$d$(DATADIR)/$(CREATED_DIRS)"); \
	rm -f "$$d$(BINDIR)/tictactoe" "$$d$(MAN1DIR)/tictactoe.1" "$$d$(MAN1DIR)"/tictactoe.*.1 \
	  "$$d$(BASHCOMPDIR)/tictactoe" "$$d$(ZSHCOMPDIR)/_tictactoe" "$$d$(FISHCOMPDIR)/tictactoe.fish"; \
	rm -rf "$$d$(DATADIR)"; \
	for dir in $$(printf '%s\n' $$created | sort -r); do \
	  if [ -d "$$d$$dir" ]; then rmdir --ignore-fail-on-non-empty "$$d$$dir"; fi; \
	done; \
	echo "uninstalled tictactoe from $$d$(PREFIX)"

# make bench (issue 15): one unattended run, under 5 minutes after the builds. The driver (Benchmarks/Sources/bench,
# its own package built in .build-bench, so make test never builds it) measures BIN from outside, with only the
# options every tictactoe since fe810c1 has, against anchors measured in the same run (a C ping-pong and a pty timer
# built from Benchmarks/anchors/, /bin/true, dialog, avahi-publish/avahi-browse in the LAN lab); then ordo-one's
# benchmark plugin runs the in-process figures (Benchmarks/Benchmarks/Micro), and transport-bench issue 12's join and
# TLS round-trip figures (this checkout's code, in one process). BIN=path measures another binary (the
# "before" one), BENCH_LABEL names the results; make bench-compare OLD=a.json NEW=b.json prints two side by side.
bench: check-swift deps bench-deps release-setup
	$(RELEASE_BUILD)
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product transport-bench
	$(BENCH_BUILD)
	$(SWIFT) build --package-path Benchmarks --scratch-path "$(CURDIR)/.build-bench" -c release --product nio-pingpong
	@# The benchmark plugin's own tool and the Micro target, built before the clock starts (list builds, runs nothing).
	$(SWIFT) package --package-path Benchmarks --scratch-path "$(CURDIR)/.build-bench" --disable-sandbox benchmark list \
	  >/dev/null
	@bin="$(BIN_BENCH)"; [ -n "$$bin" ] || bin="$$($(SWIFT) build -c release $(RELEASE_FLAGS) --show-bin-path)/tictactoe"; \
	start=$$(date +%s); \
	taskset -c 1 "$$($(BENCH_BUILD) --show-bin-path)/bench" --bin "$$bin" --repo "$(CURDIR)" --out "$(CURDIR)/.build/bench" \
	  $(if $(BENCH_LABEL),--label "$(BENCH_LABEL)") $(BENCH_ARGS) || exit $$?; \
	echo ""; echo "make bench: in-process figures (ordo-one/benchmark, Benchmarks/Benchmarks/Micro)"; \
	$(SWIFT) package --package-path Benchmarks --scratch-path "$(CURDIR)/.build-bench" --disable-sandbox benchmark \
	  --no-progress --format markdown || exit $$?; \
	echo ""; echo "make bench: joins and move round trips in one process (issue 12's targets: Sources/transport-bench)"; \
	"$$($(SWIFT) build -c release $(RELEASE_FLAGS) --show-bin-path)/transport-bench" --joins 100 --rounds 4 || exit $$?; \
	echo "make bench: $$(( $$(date +%s) - start )) s of runs (builds not included); results in .build/bench/"

bench-compare:
	@[ -n "$(OLD)" ] && [ -n "$(NEW)" ] || { echo "make bench-compare OLD=before.json NEW=after.json"; exit 2; }
	$(BENCH_BUILD)
	@"$$($(BENCH_BUILD) --show-bin-path)/bench" --compare "$(OLD)" "$(NEW)"

bench-deps:
	$(call install_missing,$(BENCH_PACKAGES),bench)

# make link-order (issue 15, memory and start-up): which functions the release binary runs, exactly (callgrind, not
# sampling: a function that runs once at start matters as much as a hot one): a networked host's and joiner's first,
# then what every command's start adds, then the menu's, hottest first in each, into the file the release link
# orders the text by. Run it after changes to what a match, the start or the menu run; a stale list
# still links (a function it no longer names is ignored, one it does not name yet comes after the others).
link-order: check-swift release-setup
	$(call install_missing,$(LINK_ORDER_PACKAGES),link-order)
	$(RELEASE_BUILD)
	@# Linked once more with lld's map (which function sits in which input section: link-order.py puts the large
	@# sections last). The build does not know the list is an input of the link: the binary goes, so the next
	@# build links again. (Nor does it know Sources/tictactoe/link-sections.ld: after changing that, delete the
	@# release binary.)
	bin="$$($(SWIFT) build -c release $(RELEASE_FLAGS) --show-bin-path)/tictactoe"; map="$(CURDIR)/.build/link-order.map"; \
	  $(SWIFT) build -c release $(RELEASE_FLAGS) -Xlinker -Map="$$map" -Xlinker --no-demangle --product tictactoe \
	  && Benchmarks/link-order.sh "$$bin" Sources/tictactoe/link-order.txt "$$map" && rm -f "$$bin" "$$map"

# The wire codec's libFuzzer target (Fuzz/: its own package, since -sanitize=fuzzer brings libFuzzer's main, which
# clashes with the app's @main and the test runner). libFuzzer comes with the Swift toolchain (its clang runtime):
# no Debian package. Both -sanitize flags go in one -Xswiftc (swift-driver passes only the last -sanitize= to the
# compiler, which would drop the coverage libFuzzer needs); SwiftPM's own --sanitize=fuzzer makes it link
# libFuzzer's main instead of the executable's.
FUZZ_BUILD = $(SWIFT) build --package-path Fuzz --scratch-path "$(CURDIR)/.build-fuzz" -c release --sanitize=fuzzer \
	-Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library

# Runs the fuzz target for SECONDS from the committed seed corpus (Fuzz/corpus: read, never written; new inputs go to
# .build-fuzz/corpus, a crashing input to .build-fuzz/artifacts/), then prints executions per second and totals.
# `make test` runs only a bounded pass of the same invariants (GameProtocolTests, WireFuzzPassTests).
fuzz: check-swift
	@case "$(SECONDS)" in ''|*[!0-9]*|0) \
	  echo "make fuzz: SECONDS must be a whole number above 0, not '$(SECONDS)'"; exit 2;; esac
	$(FUZZ_BUILD)
	@mkdir -p .build-fuzz/corpus .build-fuzz/artifacts
	@bin="$$($(FUZZ_BUILD) --show-bin-path)/FrameFuzzer"; log=.build-fuzz/fuzz.log; \
	echo "make fuzz: FrameFuzzer for $(SECONDS) s from $$(ls Fuzz/corpus | wc -l) seeds (Fuzz/corpus)" \
	  "and $$(ls .build-fuzz/corpus | wc -l) inputs found before (.build-fuzz/corpus)"; \
	"$$bin" -max_total_time=$(SECONDS) -print_final_stats=1 -max_len=1100 -timeout=10 \
	  -artifact_prefix=.build-fuzz/artifacts/ .build-fuzz/corpus Fuzz/corpus >"$$log" 2>&1; status=$$?; \
	if [ $$status -ne 0 ]; then tail -n 60 "$$log"; \
	  echo "make fuzz: FAILED (exit $$status): the input is in .build-fuzz/artifacts/, the log in $$log"; exit 1; fi; \
	grep '^stat::' "$$log"; \
	runs=$$(sed -n 's/^stat::number_of_executed_units: *//p' "$$log"); \
	rate=$$(sed -n 's/^stat::average_exec_per_sec: *//p' "$$log"); \
	found=$$(sed -n 's/^stat::new_units_added: *//p' "$$log"); \
	echo "make fuzz: $$runs executions in $(SECONDS) s ($$rate per second), $$found new inputs, 0 crashes," \
	  "every invariant held"

clean:
	rm -rf .build .build-fuzz .build-bench
