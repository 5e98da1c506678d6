# photolibd: the two commands a new machine needs are `make run` and `make test`.
SWIFT ?= swift
PREFIX ?= /usr/local

.PHONY: deps build release run test bench clean

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# Runs the daemon on its embedded defaults (~/Pictures, ~/.local/share/photolibd) until Ctrl-C.
run: build
	.build/debug/photolibd

# Builds everything (the end-to-end tests start the real binaries) and runs every test.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test

bench: release
	@scripts/install-deps --bench
	scripts/benchmark

clean:
	rm -rf .build
