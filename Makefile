# localauthd — the two commands a newcomer needs: `make run` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
# Debian packages the build and the tests need (installed when missing).
DEB_PACKAGES := libsystemd-dev libsqlite3-dev libssl-dev openssl socat systemd systemd-container debootstrap python3 procps
# The extra Debian packages that building the manual pages and the .deb needs.
DOC_PACKAGES := scdoc
DEB_BUILD_PACKAGES := $(DOC_PACKAGES) debhelper dpkg-dev fakeroot lintian pkgconf
RUN_SOCKET ?= $(or $(XDG_RUNTIME_DIR),/tmp/localauthd-$(shell id -u))/localauthd/localauthd.sock

.PHONY: all deps install-debian-packages build release run test test-systemd clean format format-check

all: build

deps:
	@$(MAKE) -s install-debian-packages PACKAGES="$(DEB_PACKAGES)"

# install-debian-packages PACKAGES="...": apt-get installs those that are missing.
install-debian-packages:
	@missing=""; for p in $(PACKAGES); do \
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
	@echo "localauthd (demo mode) on $(RUN_SOCKET); try: socat - UNIX-CONNECT:$(RUN_SOCKET)"
	$$($(SWIFT) build --show-bin-path)/localauthd --demo --stderr --socket $(RUN_SOCKET)

test: deps format-check
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build 2>&1 | tee .build/test-output.txt; exit $${PIPESTATUS[0]}
	@if [ -x Tests/systemd/run-all.sh ]; then $(MAKE) test-systemd; fi

test-systemd: release
	LOCALAUTHD=$$($(SWIFT) build -c release --show-bin-path)/localauthd Tests/systemd/run-all.sh

# swift format with the toolchain's default settings; any finding fails the build.
format-check:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests fuzz/Sources fuzz/Package.swift

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests fuzz/Sources fuzz/Package.swift

clean:
	rm -rf .build

-include systemd/install.mk
-include mk/bench.mk
