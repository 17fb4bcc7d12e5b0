# localauthd — the two commands a newcomer needs: `make run` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
# Debian packages the build and the tests need (installed when missing).
DEB_PACKAGES := libsystemd-dev libsqlite3-dev libssl-dev openssl socat systemd systemd-container debootstrap python3 procps
# `make run` binds where localauthd binds by default (SocketLocation: $LOCALAUTHD_SOCKET, else
# /run/localauthd/localauthd.sock as root, else $XDG_RUNTIME_DIR/localauthd/localauthd.sock, else
# /tmp/localauthd-UID/localauthd.sock), so localauthctl and LocalAuthClient find it unaided;
# RUN_SOCKET=PATH overrides it (then export LOCALAUTHD_SOCKET=PATH for the clients).
RUN_SOCKET ?=
# Demo state (persisted rights, device key) lives in a scratch directory of this clone, per user,
# never in the service's /var/lib/localauthd.
RUN_STATE ?= $(CURDIR)/.build/demo-state-$(shell id -u)

.PHONY: all deps build release run test test-samples test-systemd docs clean format format-check

all: build

deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" -ne 0 ]; then SUDO=sudo; fi; \
	  $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q --no-install-recommends $$missing; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --static-swift-stdlib

run: build
	mkdir -p -m 700 $(RUN_STATE)
	$$($(SWIFT) build --show-bin-path)/localauthd --demo --stderr --state-dir $(RUN_STATE) \
		$(if $(RUN_SOCKET),--socket $(RUN_SOCKET))

test: deps format-check
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build 2>&1 | tee .build/test-output.txt; exit $${PIPESTATUS[0]}
	$(MAKE) test-samples
	@if [ -x Tests/systemd/run-all.sh ]; then $(MAKE) test-systemd; fi

# Apple's LocalAuthentication sample code (Examples/AppleSamples, its own package, Swift 6 mode)
# against a real demo daemon; a forged signature must fail verification there.
test-samples:
	$(SWIFT) build --product localauthd
	Examples/AppleSamples/run.sh $$($(SWIFT) build --show-bin-path)/localauthd

test-systemd: release
	LOCALAUTHD=$$($(SWIFT) build -c release --show-bin-path)/localauthd Tests/systemd/run-all.sh

# LocalAuthClient's DocC catalog (articles and the porting guide) as a static site in .build/docs,
# with the toolchain's own docc (no package plugin needed).
docs: build
	$(SWIFT) package dump-symbol-graph --minimum-access-level public
	rm -rf .build/docs-symbols && mkdir -p .build/docs-symbols
	cp $$($(SWIFT) build --show-bin-path)/../symbolgraph/LocalAuthClient*.symbols.json .build/docs-symbols/
	docc convert Sources/LocalAuthClient/LocalAuthClient.docc --additional-symbol-graph-dir .build/docs-symbols \
		--fallback-display-name LocalAuthClient --fallback-bundle-identifier org.localauthd.LocalAuthClient \
		--output-path .build/docs --analyze

# swift format with the toolchain's default settings; any finding fails the build.
format-check:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests fuzz/Sources fuzz/Package.swift Examples/AppleSamples/Package.swift Examples/AppleSamples/Sources

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests fuzz/Sources fuzz/Package.swift Examples/AppleSamples/Package.swift Examples/AppleSamples/Sources

clean:
	rm -rf .build

-include systemd/install.mk
-include mk/bench.mk
