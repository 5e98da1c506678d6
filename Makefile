# photolibd: the two commands a new machine needs are `make run` and `make test`.
SWIFT ?= swift
PREFIX ?= /usr/local
DESTDIR ?=
CONFIGURATION ?= release
export SWIFT PREFIX DESTDIR CONFIGURATION

.PHONY: deps build release run test bench check-systemd install uninstall deb check-deb clean

deps:
	@scripts/install-deps

# photolibd-inotify, photolibd-viewfs and libphotolibd-metadata.so are C and C++, built beside the Swift
# executables by scripts/build-c-helpers;
# photolibd-page and photolibd-portal are names of photolibd (scripts/link-programs).
build: deps
	$(SWIFT) build
	scripts/build-c-helpers .build/debug
	scripts/link-programs .build/debug

# Release binaries in .build/dist/release, linking the Swift runtime as shared libraries, which
# scripts/install puts once beside them; a scratch path of their own, so building them never throws
# away the debug build (scripts/build-release says how they are built; scripts/install builds them so).
DIST_BUILD = .build/dist
release: deps
	scripts/build-release

# Runs the daemon on its embedded defaults (~/Pictures, ~/.local/share/photolibd) until Ctrl-C.
run: build
	.build/debug/photolibd

# Builds everything (the end-to-end tests start the real binaries), checks that each
# executable is a combination its licence allows (scripts/check-licences), runs every
# test, installs into a temporary PREFIX and checks what a packager gets, then
# kills the daemon at 20 random instants during edits (scripts/crash-test), at
# 10 more on XFS and on btrfs with views as clones and photos edited in place,
# and at 10 during its start-up scan (scripts/crash-scan-test), and fuzzes the
# socket's framing and request decoding for 30 s (scripts/fuzz).
test: deps
	@scripts/install-deps --test
	$(SWIFT) build --build-tests
	scripts/build-c-helpers .build/debug
	scripts/link-programs .build/debug
	scripts/check-licences --bin .build/debug --quiet
	scripts/swift-test --skip EndToEndTests
	scripts/swift-test --filter EndToEndTests
	scripts/check-install
	scripts/crash-test --trials 20 --bin .build/debug
	scripts/crash-test --trials 10 --filesystem xfs --bin .build/debug
	scripts/crash-test --trials 10 --filesystem btrfs --bin .build/debug
	scripts/crash-scan-test --trials 10 --files 1000 --bin .build/debug
	scripts/fuzz 30

bench: release
	@scripts/install-deps --bench
	scripts/benchmark --bin $(DIST_BUILD)/release
	scripts/benchmark-page --bin $(DIST_BUILD)/release
	scripts/benchmark-places --bin $(DIST_BUILD)/release
	scripts/benchmark-convert --bin $(DIST_BUILD)/release
	scripts/benchmark-viewfs --bin $(DIST_BUILD)/release
	scripts/benchmark-network --bin $(DIST_BUILD)/release

# The units under a real systemd 252 in a throw-away container: socket
# activation, readiness, the watchdog, journald, an app uid reading its view.
# Needs root; not part of `make test`. See scripts/check-systemd.
check-systemd: deps
	scripts/check-systemd

# Binaries, systemd units, the config file, man pages, bash/zsh/fish completions
# and docs into $(DESTDIR)$(PREFIX). BINDIR, DATADIR, MANDIR, SYSTEMDSYSTEMUNITDIR
# and SYSTEMDUSERUNITDIR may be set too; see scripts/install.
install: deps
	scripts/install

uninstall:
	scripts/install --uninstall

# photolibd_VERSION_ARCH.deb from the release build, checked by lintian; see scripts/make-deb.
deb: deps
	scripts/make-deb

# Needs root; not part of `make test`. The package on a clean bookworm under systemd: scripts/check-deb.
# The first package is built from fc3b801, the oldest commit that makes one (schema v17: v16 had no
# make-deb), so the upgrade over the running daemon also migrates its database to today's schema, which
# its log must say. CHECK_DEB_FROM= checks an upgrade between two packages of this tree instead.
CHECK_DEB_FROM ?= fc3b801
check-deb: deps
	scripts/check-deb $(if $(CHECK_DEB_FROM),--from $(CHECK_DEB_FROM))

clean:
	rm -rf .build
