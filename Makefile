# photolibd: the two commands a new machine needs are `make run` and `make test`.
SWIFT ?= swift
PREFIX ?= /usr/local
DESTDIR ?=
CONFIGURATION ?= release
export SWIFT PREFIX DESTDIR CONFIGURATION

.PHONY: deps build release run test bench install uninstall clean

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# Runs the daemon on its embedded defaults (~/Pictures, ~/.local/share/photolibd) until Ctrl-C.
run: build
	.build/debug/photolibd

# Builds everything (the end-to-end tests start the real binaries), runs every
# test, installs into a temporary PREFIX and checks what a packager gets, then
# kills the daemon at 20 random instants (scripts/crash-test) and fuzzes the
# socket's framing and request decoding for 30 s (scripts/fuzz).
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test
	scripts/check-install
	scripts/crash-test --trials 20 --bin .build/debug
	scripts/fuzz 30

bench: release
	@scripts/install-deps --bench
	scripts/benchmark

# Binaries, systemd units, the config file, man pages, bash/zsh/fish completions
# and docs into $(DESTDIR)$(PREFIX). BINDIR, DATADIR, MANDIR, SYSTEMDSYSTEMUNITDIR
# and SYSTEMDUSERUNITDIR may be set too; see scripts/install.
install: deps
	scripts/install

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/photolibd $(DESTDIR)$(PREFIX)/bin/photolibctl
	rm -f $(DESTDIR)$(PREFIX)/share/man/man1/photolibd.1 $(DESTDIR)$(PREFIX)/share/man/man1/photolibctl.1
	rm -f $(DESTDIR)$(PREFIX)/lib/systemd/system/photolibd@.service $(DESTDIR)$(PREFIX)/lib/systemd/system/photolibd@.socket
	rm -f $(DESTDIR)$(PREFIX)/lib/systemd/user/photolibd.service $(DESTDIR)$(PREFIX)/lib/systemd/user/photolibd.socket
	rm -f $(DESTDIR)$(PREFIX)/share/bash-completion/completions/photolibd $(DESTDIR)$(PREFIX)/share/bash-completion/completions/photolibctl
	rm -f $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_photolibd $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_photolibctl
	rm -f $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/photolibd.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/photolibctl.fish
	rm -rf $(DESTDIR)$(PREFIX)/share/photolibd $(DESTDIR)$(PREFIX)/share/doc/photolibd

clean:
	rm -rf .build
