# tictactoe: a terminal tic-tac-toe for two players on a LAN. `make` builds (debug); each target below says what it
# does in one line. Long recipes are scripts in scripts/, each with a usage line at its top. The LAN lab
# (Tests/lab/lan, network namespaces with their own avahi-daemon) is described in docs/LAN-LAB.md.

SWIFT   ?= swift
PREFIX  ?= /usr/local
DESTDIR ?=
SCENE   ?= deferred
AUTO    ?=
SECONDS ?= 60
BIN      = .build/debug/tictactoe

# The release build (make install, make bench) keeps every run-time safety check of the debug build (bounds,
# overflow, exclusive access): no option here removes one.
#   --static-swift-stdlib   the Swift runtime and FoundationEssentials linked in: one binary, no Swift library to
#                           find and load at start
#   --disable-local-rpath   no $ORIGIN run path: an installed binary never loads a library from beside itself
# The release link's own options (lld, packed relocations, the static C archives) are the tictactoe target's
# linkerSettings in Package.swift. Only the products named are built: the test support target links XCTest, which
# has no static library.
RELEASE_FLAGS = --static-swift-stdlib --disable-local-rpath
RELEASE_BUILD = $(SWIFT) build -c release $(RELEASE_FLAGS)
RELEASE_BIN   = .build/release/tictactoe
# The archives of libstdc++, libsodium, ncursesw and tinfo, linked here by scripts/static-libs.sh before each release
# build; the release link searches this directory first, so the binary loads only libc and libm.
STATIC_LIB_DIR = .build/static-libs
STATIC_LIBS    = SWIFT="$(SWIFT)" scripts/static-libs.sh $(STATIC_LIB_DIR) $(RELEASE_BIN)

# make install-files: what it copies (make install passes the release binary and the debug build's man pages).
CONFIG      ?= debug
INSTALL_BIN ?= $(RELEASE_BIN)
MANPAGES    ?= .build/man/$(CONFIG)

# make bench: the binary to measure (default: this checkout's release build), the results' name (default: the
# commit), the driver's other options (--no-lab, --quick, --scale).
BIN_BENCH   ?= $(if $(filter command line environment,$(origin BIN)),$(BIN),$(RELEASE_BIN))
BENCH_LABEL ?=
BENCH_ARGS  ?=
BENCH_BUILD  = $(SWIFT) build --package-path Benchmarks --scratch-path "$(CURDIR)/.build-bench" -c release \
	--product bench

# The build: ncursesw, Avahi's dns_sd header, libsodium (Package.swift's system libraries; libdns_sd itself is loaded
# when Bonjour is first used). The tests: tmux (the TUI in a terminal), avahi-daemon, avahi-utils, dbus, iproute2
# (the LAN lab), procps, strace (what a process sends before permission), tcpdump (what an eavesdropper sees),
# man-db (the installed man page), python3 (the sample engine Assets/engines/perfect.py), dpkg-dev (make deb and
# its test: dpkg-shlibdeps), lintian (make deb).
DEB_PACKAGES = libncurses-dev libavahi-compat-libdnssd-dev libavahi-common-dev libsodium-dev tmux avahi-daemon \
	avahi-utils dbus iproute2 procps strace tcpdump man-db python3 dpkg-dev lintian
# make bench: whole-process timings, the first-frame anchor, profiles, a C compiler for the anchors, the lab.
BENCH_PACKAGES = hyperfine dialog linux-perf gcc avahi-daemon avahi-utils dbus iproute2 procps

.PHONY: all build deps check-swift play check test lab-check demo demo-check demo-docs help-docs man release install \
	install-files deb uninstall bench bench-compare bench-deps fuzz clean

all: build

# Says how to get Swift when there is none on PATH.
check-swift:
	@command -v $(SWIFT) >/dev/null 2>&1 || { \
	  echo "make: no Swift toolchain found: install Swift 6 (https://www.swift.org/install/linux/) and put it on PATH."; \
	  exit 1; }

# Installs the Debian packages the build and the tests need that are missing (through sudo when not root).
deps:
	@scripts/install-missing.sh deps $(DEB_PACKAGES)

# The debug build.
build: check-swift
	$(SWIFT) build

# Installs what is missing, builds, and plays.
play: deps build
	@$(BIN)

# The quick tier: every unit and in-process test, no end-to-end process and no lab (what to run while working).
check: deps check-swift
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-swift-testing --skip EndToEndTests --skip LabTests

# Builds, makes the man pages InstallTests and DebianPackageTests install, checks for the lab (root), and runs every
# test and the demo check, on three lines at once, the lab tests split over three labs (scripts/test-lines.sh).
test: deps check-swift
	$(SWIFT) build --build-tests
	@$(MAKE) --no-print-directory man CONFIG=debug
	@$(MAKE) --no-print-directory lab-check
	@SWIFT="$(SWIFT)" scripts/test-lines.sh .build/test-logs $(DEMO_CHECK)

# The LAN lab tests (Tests/LabTests) need root: without it they are skipped, and with CI=true that is a failure.
lab-check:
	@scripts/needs-root.sh test "the LAN lab tests (Tests/LabTests)" "sudo make test"

# The deferred-prompting demo (docs/DEMO.md) in tmux, in the LAN lab (root, a terminal); AUTO=1 plays it for you.
demo: deps build
	@Tests/demo/demo $(SCENE) $(if $(filter 1 yes true,$(AUTO)),--auto)

# Plays every scene unattended and compares its screens and pictures with docs/demo/; writes nothing (root; part of
# test).
DEMO_CHECK = scripts/needs-root.sh demo-check "the demo checks (Tests/demo/check)" "sudo make demo-check" \
	env TICTACTOE_BIN="$(CURDIR)/$(BIN)" Tests/demo/check
demo-check: deps build
	@$(DEMO_CHECK)

# Plays every scene and rewrites docs/demo/*.txt and *.svg and the screens in docs/DEMO.md (root): commit what changed.
demo-docs: deps build
	@TICTACTOE_BIN="$(CURDIR)/$(BIN)" Tests/demo/check --write

# Writes every command's --help to docs/help/*.txt (what PinnedHelpTests compares): commit what changed.
help-docs: build
	@Tests/help-docs "$(BIN)"

# Man pages, one per command, from the argument-parser definitions (its generate-manual plugin, which builds the
# product in CONFIG) into .build/man/CONFIG.
MAN_PLUGIN_OUT = .build/plugins/GenerateManual/outputs/tictactoe
man: check-swift
	rm -rf $(MAN_PLUGIN_OUT)
	$(SWIFT) package plugin generate-manual --configuration $(CONFIG) --multi-page
	@[ -f $(MAN_PLUGIN_OUT)/tictactoe.1 ] || { echo "make man: no $(MAN_PLUGIN_OUT)/tictactoe.1 from the plugin"; exit 1; }
	@rm -rf .build/man/$(CONFIG) && mkdir -p .build/man/$(CONFIG)
	@cp $(MAN_PLUGIN_OUT)/tictactoe*.1 .build/man/$(CONFIG)/
	@echo "make man: $$(ls .build/man/$(CONFIG) | wc -l) pages in .build/man/$(CONFIG)"

# The release build, checked (it loads only libc and libm), and the man pages, which come from the debug build: their
# text is the same, and the plugin builds without RELEASE_FLAGS.
release: check-swift
	@$(MAKE) --no-print-directory man CONFIG=debug
	@$(STATIC_LIBS)
	$(RELEASE_BUILD) --product tictactoe
	@scripts/check-release.sh $(RELEASE_BIN) $(STATIC_LIB_DIR)

# The release build installed under DESTDIR+PREFIX.
install: release
	@$(MAKE) --no-print-directory install-files INSTALL_BIN=$(RELEASE_BIN) MANPAGES=.build/man/debug

# The release build as .build/deb/tictactoe_VERSION_ARCH.deb (Maintainer: DEB_MAINTAINER, else git's user), checked
# by lintian (its overrides, each with its reason: debian/lintian-overrides).
deb: deps release
	@scripts/deb.sh --lintian $(RELEASE_BIN) .build/man/debug .build/deb

# Copies INSTALL_BIN, Assets/, the man pages in MANPAGES and the completions without building (InstallTests runs it).
install-files:
	@scripts/install-files.sh "$(INSTALL_BIN)" "$(MANPAGES)" "$(PREFIX)" "$(DESTDIR)"

# Removes exactly what install put under DESTDIR+PREFIX, and the directories it created when they are empty.
uninstall:
	@scripts/uninstall.sh "$(PREFIX)" "$(DESTDIR)"

# Measures the release binary (or BIN=path) against anchors measured in the same run (docs/PERFORMANCE.md).
bench: check-swift deps bench-deps
	@$(STATIC_LIBS)
	$(RELEASE_BUILD) --product tictactoe
	$(RELEASE_BUILD) --product transport-bench
	@SWIFT="$(SWIFT)" scripts/bench.sh "$(BIN_BENCH)" .build/release/transport-bench \
	  $(if $(BENCH_LABEL),--label "$(BENCH_LABEL)") $(BENCH_ARGS)

# Prints two make bench results side by side: make bench-compare OLD=before.json NEW=after.json.
bench-compare:
	@[ -n "$(OLD)" ] && [ -n "$(NEW)" ] || { echo "make bench-compare OLD=before.json NEW=after.json"; exit 2; }
	$(BENCH_BUILD)
	@"$$($(BENCH_BUILD) --show-bin-path)/bench" --compare "$(OLD)" "$(NEW)"

# Installs the Debian packages make bench needs that are missing.
bench-deps:
	@scripts/install-missing.sh bench $(BENCH_PACKAGES)

# Fuzzes the wire codec with libFuzzer for SECONDS (Fuzz/, built in .build-fuzz); make test runs a bounded pass.
fuzz: check-swift
	@SWIFT="$(SWIFT)" scripts/fuzz.sh "$(SECONDS)"

# Removes every build directory.
clean:
	rm -rf .build .build-fuzz .build-bench
