# localauthd — the two commands a newcomer needs: `make run` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
# Debian packages the build and the tests need (installed when missing).
DEB_PACKAGES := libsystemd-dev libsqlite3-dev libssl-dev openssl socat systemd systemd-container debootstrap python3 procps fprintd dbus-daemon polkitd
# The extra Debian packages that building the manual pages and the .deb needs.
DOC_PACKAGES := scdoc
DEB_BUILD_PACKAGES := $(DOC_PACKAGES) debhelper dpkg-dev fakeroot lintian pkgconf
# `make run` binds where localauthd binds by default (SocketLocation: $LOCALAUTHD_SOCKET, else
# /run/localauthd/localauthd.sock as root, else $XDG_RUNTIME_DIR/localauthd/localauthd.sock, else
# /tmp/localauthd-UID/localauthd.sock), so localauthctl and LocalAuthClient find it unaided;
# RUN_SOCKET=PATH overrides it (then export LOCALAUTHD_SOCKET=PATH for the clients).
RUN_SOCKET ?=
# Demo state (persisted rights, device key) lives in a scratch directory of this clone, per user,
# never in the service's /var/lib/localauthd.
RUN_STATE ?= $(CURDIR)/.build/demo-state-$(shell id -u)

.PHONY: all deps doc-deps deb-deps build man release run try-fprintd test test-samples test-readme test-systemd test-completion test-install test-package deb docs clean format format-check

all: build man

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

doc-deps:
	@$(MAKE) -s install-debian-packages PACKAGES="$(DOC_PACKAGES)"

deb-deps: deps
	@$(MAKE) -s install-debian-packages PACKAGES="$(DEB_BUILD_PACKAGES)"

# Manual pages (man/*.scd → .build/man/), with scdoc.
man: doc-deps localauthd-man

release: deps
	$(SWIFT) build -c release --static-swift-stdlib

run: build
	mkdir -p -m 700 $(RUN_STATE)
	$$($(SWIFT) build --show-bin-path)/localauthd --demo --stderr --state-dir $(RUN_STATE) \
		$(if $(RUN_SOCKET),--socket $(RUN_SOCKET))

test: deps format-check
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build 2>&1 | tee .build/test-output.txt; exit $${PIPESTATUS[0]}
	$(MAKE) test-completion
	$(MAKE) test-samples
	$(MAKE) test-readme
	$(MAKE) test-pam
	@if [ -x Tests/systemd/run-all.sh ]; then $(MAKE) test-systemd; fi
	$(MAKE) test-install
	$(MAKE) test-package

test-systemd: release man pam deb
	LOCALAUTHD=$$($(SWIFT) build -c release --show-bin-path)/localauthd \
	  LOCALAUTHD_DEB=$(DEB_OUTPUT)/localauthd_$(DEB_VERSION)_$(DEB_ARCH).deb Tests/systemd/run-all.sh

# A try-out container (docs/fprintd-tryout.md): the package, fprintd with libfprint's virtual
# device, users with an enrolled finger, the README's /etc/pam.d/sudo; runs until Ctrl-C.
try-fprintd: deb
	LOCALAUTHD_TRYOUT=1 Tests/systemd/fprintd-sudo.sh $(DEB_OUTPUT)/localauthd_$(DEB_VERSION)_$(DEB_ARCH).deb

# bash and zsh completion in real shells, against a demo daemon (the debug build).
test-completion: build
	@$(MAKE) -s install-debian-packages PACKAGES="zsh bash"
	Tests/completion/completion.sh $$($(SWIFT) build --show-bin-path)

# make install into a staging root, then make uninstall (reuses the release build).
test-install: release man
	Tests/install/make-install.sh

# The .deb: built (reusing the release build), lintian-checked, installed with apt in the
# systemd container, removed and purged (Tests/systemd/package.sh).
test-package: deb
	Tests/systemd/package.sh $(DEB_OUTPUT)/localauthd_$(DEB_VERSION)_$(DEB_ARCH).deb

# The Debian package, with debhelper (debian/): binary packages only, unsigned. The files
# dpkg-buildpackage leaves in the parent directory are moved to $(DEB_OUTPUT).
DEB_OUTPUT := .build/deb
DEB_VERSION = $(shell dpkg-parsechangelog -S Version)
DEB_ARCH = $(shell dpkg-architecture -qDEB_HOST_ARCH)
deb: deb-deps
	dpkg-buildpackage -us -uc -b
	mkdir -p $(DEB_OUTPUT)
	for f in ../localauthd_$(DEB_VERSION)_$(DEB_ARCH).deb ../localauthd-dbgsym_$(DEB_VERSION)_$(DEB_ARCH).deb \
	  ../localauthd_$(DEB_VERSION)_$(DEB_ARCH).buildinfo ../localauthd_$(DEB_VERSION)_$(DEB_ARCH).changes; do \
	  mv -f $$f $(DEB_OUTPUT)/ || exit 1; \
	done
	lintian --fail-on warning,error --suppress-tags bad-distribution-in-changes-file \
	  $(DEB_OUTPUT)/localauthd_$(DEB_VERSION)_$(DEB_ARCH).changes
	@ls -l $(DEB_OUTPUT)/*.deb

# The README's sessions, verbatim, against `make run`: the founding bug's recipe and doctor, then the
# first session (socat) twice in a row.
test-readme: build
	Tests/readme/run.sh

# Apple's LocalAuthentication sample code (Examples/AppleSamples, its own package, Swift 6 mode)
# against a real demo daemon; a forged signature must fail verification there.
test-samples:
	$(SWIFT) build --product localauthd
	Examples/AppleSamples/run.sh $$($(SWIFT) build --show-bin-path)/localauthd

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

# make install builds what it installs: the release binaries and the manual pages.
install-localauthd-binaries: release
install-localauthd-man: doc-deps

-include systemd/install.mk
-include mk/bench.mk
-include mk/pam.mk
