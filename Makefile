# localauthd — the two commands a newcomer needs: `make run` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
# Debian packages. `make build` (and every other target that only builds) checks that what it
# needs is installed and, when not, says which and to run `sudo make deps`; it never runs apt or
# sudo. Only the *deps targets install (apt-get, as root), and `make run`, `make test` and
# `make deb` call them first, saying so.
BUILD_PACKAGES := libsystemd-dev libsqlite3-dev libssl-dev libtss2-dev libgtk-4-dev
# What the tests and `make run` need besides.
DEB_PACKAGES := $(BUILD_PACKAGES) clang-format openssl socat systemd systemd-container debootstrap python3 procps fprintd dbus-daemon polkitd python3-dbus python3-gi
# The extra Debian packages that building the manual pages and the .deb needs.
DOC_PACKAGES := scdoc
DEB_BUILD_PACKAGES := $(DOC_PACKAGES) debhelper dpkg-dev fakeroot lintian pkgconf
# The shells the completion tests drive.
SHELL_PACKAGES := zsh bash
# `make run` never binds the service's socket (/run/localauthd/localauthd.sock), even as root: its
# demo daemon (passcode 1234) serves a private socket in this clone, per user, and prints the
# `export LOCALAUTHD_SOCKET=…` line the clients need (`make -s run-socket` prints the path too).
# RUN_SOCKET=PATH names another one.
RUN_SOCKET ?= $(CURDIR)/.build/demo-$(shell id -u)/localauthd.sock
# Demo state (persisted rights, device key) lives in a scratch directory of this clone, per user,
# never in the service's /var/lib/localauthd.
RUN_STATE ?= $(CURDIR)/.build/demo-state-$(shell id -u)

.PHONY: all deps doc-deps deb-deps test-deps check-build-packages check-doc-packages build check man release run run-socket try-fprintd bench-fprintd-sudo test test-samples test-readme test-systemd test-completion test-install test-package test-package-built deb docs clean clean-test format format-check

all: build man

# $(call missing_packages,LIST): a shell command printing those of LIST that are not installed.
missing_packages = for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || printf ' %s' $$p; \
	done
# $(call require_packages,LIST,TARGET): a recipe line failing, with what to run, when one is missing.
require_packages = @missing=$$($(call missing_packages,$(1))); if [ -n "$$missing" ]; then \
	  echo "missing Debian packages:$$missing" >&2; \
	  echo "install them with: sudo make $(2)   (as root: make $(2))" >&2; exit 1; \
	fi
# $(call install_packages,LIST,TARGET): a recipe line installing the missing ones with apt-get, as
# root; anyone else is told to run TARGET with sudo (no sudo here: it cannot ask without a terminal).
install_packages = @missing=$$($(call missing_packages,$(1))); if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" -ne 0 ]; then \
	    echo "missing Debian packages:$$missing" >&2; \
	    echo "installing them needs root: sudo make $(2)" >&2; exit 1; \
	  fi; \
	  echo "make $(2): installing Debian packages:$$missing"; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	fi

deps:
	$(call install_packages,$(DEB_PACKAGES),deps)

# What building needs, checked (never installed).
check-build-packages:
	$(call require_packages,$(BUILD_PACKAGES),deps)

check-doc-packages:
	$(call require_packages,$(DOC_PACKAGES),doc-deps)

build: check-build-packages
	$(SWIFT) build

# The inner loop: the build with its tests, then the unit tests (a few seconds). The slow test
# targets (EndToEndTests: a real daemon; ProcessFaultTests: drivers that crash and hang, a store
# killed at random moments) and the pam, systemd, readme and package suites run in `make test`.
# Targets are skipped whole, by module name: every other test runs, whatever it is called.
SLOW_TEST_TARGETS := EndToEndTests ProcessFaultTests
# `make test` runs them in a process of their own, after the rest: their real daemons are waited
# for by blocking calls, which on 2 cores could hold every cooperative thread the unit tests'
# brokers and scripted sensors need.
space := $(subst ,, )
check: check-build-packages c-format-check
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build $(foreach target,$(SLOW_TEST_TARGETS),--skip '^$(target)\.')

doc-deps:
	$(call install_packages,$(DOC_PACKAGES),doc-deps)

deb-deps: deps
	$(call install_packages,$(DEB_BUILD_PACKAGES),deb-deps)

# Everything `make test` needs: the build's, the docs', the package's, the PAM tests', the shells.
test-deps: deps doc-deps deb-deps pam-deps ssh-deps password-helper-deps tpm-deps desktop-deps
	$(call install_packages,$(SHELL_PACKAGES),test-deps)

# Manual pages (man/*.scd → .build/man/), with scdoc.
man: check-doc-packages localauthd-man

release: check-build-packages
	$(SWIFT) build -c release --static-swift-stdlib

run:
	@echo "make run: make deps first (installs missing Debian packages, as root)"
	@$(MAKE) -s deps
	@$(MAKE) -s build
	mkdir -p -m 700 $(RUN_STATE) $(dir $(RUN_SOCKET))
	@echo "In another terminal: export LOCALAUTHD_SOCKET=$(RUN_SOCKET) PATH=\"$$($(SWIFT) build --show-bin-path):\$$PATH\""
	$$($(SWIFT) build --show-bin-path)/localauthd --demo --stderr --state-dir $(RUN_STATE) \
		--socket $(RUN_SOCKET)

# The socket `make run` serves (for `export LOCALAUTHD_SOCKET=$(make -s run-socket)`).
run-socket:
	@echo $(RUN_SOCKET)

# $(call require-root,TARGET,WHY): a recipe line stopping anyone but root at once, saying why.
require-root = @if [ "$$(id -u)" -ne 0 ]; then \
	  echo "make $(1) needs root: $(2). Run: sudo make $(1)" >&2; \
	  echo "  Without root, make check runs the unit tests (root-only ones skipped with the reason)." >&2; \
	  exit 1; \
	fi
# What in `make test` needs root; anyone else is stopped before any test.
TEST_ROOT_NEEDS := apt-get (test-deps), setpriv to nobody (the end-to-end tests), useradd and sshd (test-ssh), systemd-nspawn (test-systemd)

test:
	$(call require-root,test,$(TEST_ROOT_NEEDS))
	@echo "make test: make test-deps first (installs missing Debian packages, as root)"
	@$(MAKE) -s test-deps
	$(MAKE) format-check
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build $(foreach target,$(SLOW_TEST_TARGETS),--skip '^$(target)\.') 2>&1 \
	  | tee .build/test-output.txt; exit $${PIPESTATUS[0]}
	$(SWIFT) test --skip-build --filter '^($(subst $(space),|,$(SLOW_TEST_TARGETS)))\.' 2>&1 \
	  | tee -a .build/test-output.txt; exit $${PIPESTATUS[0]}
	$(MAKE) test-completion
	$(MAKE) test-samples
	$(MAKE) test-readme
	$(MAKE) test-pam
	$(MAKE) test-password-helper
	$(MAKE) test-ssh
	$(MAKE) test-tpm
	$(MAKE) test-git-signing
	$(MAKE) test-desktop
	$(MAKE) test-systemd
	$(MAKE) test-install
	$(MAKE) test-package-built

test-systemd: release man pam deb
	LOCALAUTHD=$$($(SWIFT) build -c release --show-bin-path)/localauthd \
	  LOCALAUTHD_DEB=$(DEB_OUTPUT)/localauthd_$(DEB_VERSION)_$(DEB_ARCH).deb Tests/systemd/run-all.sh

# A try-out container (docs/fprintd-tryout.md): the package, fprintd with libfprint's virtual
# device, users with an enrolled finger, the README's /etc/pam.d/sudo; runs until Ctrl-C.
try-fprintd: deps deb
	LOCALAUTHD_TRYOUT=1 Tests/systemd/fprintd-sudo.sh $(DEB_OUTPUT)/localauthd_$(DEB_VERSION)_$(DEB_ARCH).deb

# Issue 19's timing: sudo by finger through pam_localauthd and through Debian's pam_fprintd, interleaved
# in one booted container as try-fprintd sets it up (Tests/systemd/fprintd-race.sh; FPRINTD_RUNS each,
# default 10): both medians by wall and CPU time, the ratio and the 1.1x target. Asserts no time.
FPRINTD_RUNS ?= 10
bench-fprintd-sudo: deps deb
	LOCALAUTHD_FPRINTD_RACE_ONLY=1 LOCALAUTHD_FPRINTD_RUNS=$(FPRINTD_RUNS) \
	  Tests/systemd/fprintd-sudo.sh $(DEB_OUTPUT)/localauthd_$(DEB_VERSION)_$(DEB_ARCH).deb

# bash and zsh completion in real shells, against a demo daemon (the debug build).
test-completion: build
	$(call require_packages,$(SHELL_PACKAGES),test-deps)
	Tests/completion/completion.sh $$($(SWIFT) build --show-bin-path)

# make install into a staging root, then make uninstall (reuses the release build).
test-install: release man prompt-release
	Tests/install/make-install.sh

# The .deb: built (reusing the release build), lintian-checked, installed with apt in the
# systemd container, removed and purged (Tests/systemd/package.sh).
test-package: deb
	Tests/systemd/package.sh $(DEB_OUTPUT)/localauthd_$(DEB_VERSION)_$(DEB_ARCH).deb

# The same on the .deb that test-systemd just built: `make test` builds the package once.
test-package-built:
	Tests/systemd/package.sh $(DEB_OUTPUT)/localauthd_$(DEB_VERSION)_$(DEB_ARCH).deb

# The Debian package, with debhelper (debian/): binary packages only, unsigned. Everything
# dpkg-buildpackage makes (.deb, -dbgsym .deb, .buildinfo, .changes) goes to $(DEB_OUTPUT), never
# to the clone's parent directory.
DEB_OUTPUT := .build/deb
DEB_VERSION = $(shell dpkg-parsechangelog -S Version)
DEB_ARCH = $(shell dpkg-architecture -qDEB_HOST_ARCH)
DEB_NAME = localauthd_$(DEB_VERSION)_$(DEB_ARCH)
deb: deb-deps
	mkdir -p $(DEB_OUTPUT)
	LOCALAUTHD_DEB_DIR=$(CURDIR)/$(DEB_OUTPUT) dpkg-buildpackage -us -uc -b \
	  --buildinfo-option=-u$(DEB_OUTPUT) --buildinfo-file=$(DEB_OUTPUT)/$(DEB_NAME).buildinfo \
	  --changes-option=-u$(DEB_OUTPUT) --changes-file=$(DEB_OUTPUT)/$(DEB_NAME).changes
	lintian --fail-on warning,error --suppress-tags bad-distribution-in-changes-file \
	  $(DEB_OUTPUT)/$(DEB_NAME).changes
	@ls -l $(DEB_OUTPUT)/*.deb

# The README's sessions, verbatim, against `make run`: the founding bug's recipe and doctor, then the
# first session (socat) twice in a row; and docs/client-library.md's main sample, compiled.
test-readme: build
	Tests/readme/run.sh
	Tests/readme/client-library-sample.sh

# Apple's LocalAuthentication sample code (Examples/AppleSamples, its own package, Swift 6 mode)
# against a real demo daemon; a forged signature must fail verification there. Then app code as
# developers write it (Examples/AppFidelity: helpers, view models, LAContext test doubles, Apple's
# documentation snippets; `import LocalAuthentication` unchanged), in Swift 5 and Swift 6 mode.
test-samples:
	$(SWIFT) build --product localauthd
	Examples/AppleSamples/run.sh $$($(SWIFT) build --show-bin-path)/localauthd
	Examples/AppFidelity/run.sh $$($(SWIFT) build --show-bin-path)/localauthd

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
# The project's one C style (.clang-format): every C file of the module, the shims, the bench and the
# tests. `make check` runs the check; `make c-format` applies it.
C_FORMAT_FILES = $(wildcard helper/*.c pam/*.c pam/*.h pam/fuzz/*.c Sources/C*/*.c Sources/C*/include/*.h Sources/localauthd-prompt-window/*.[ch] bench/*.c Tests/pam/*.c)
.PHONY: c-format c-format-check
c-format:
	clang-format -i $(C_FORMAT_FILES)

c-format-check:
	$(call require_packages,clang-format,deps)
	@clang-format --dry-run --Werror $(C_FORMAT_FILES) || { echo "C style: run make c-format" >&2; exit 1; }

format-check:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests fuzz/Sources fuzz/Package.swift Examples/AppleSamples/Package.swift Examples/AppleSamples/Sources Examples/AppFidelity/Package.swift Examples/AppFidelity/Sources

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests fuzz/Sources fuzz/Package.swift Examples/AppleSamples/Package.swift Examples/AppleSamples/Sources Examples/AppFidelity/Package.swift Examples/AppFidelity/Sources

clean:
	rm -rf .build

# What `make test` leaves outside the clone (docs/hacking.md, "What make test leaves behind"): the
# systemd-nspawn root file systems it caches (about 1.2 GB) under /var/cache/localauthd-test.
# The Debian packages test-deps installed stay (apt-get remove them by name if you want).
TEST_CACHE := /var/cache/localauthd-test
clean-test:
	$(call require-root,clean-test,$(TEST_CACHE) is root's)
	rm -rf $(TEST_CACHE)

# make install builds what it installs: the release binaries and the manual pages.
install-localauthd-binaries: release
install-localauthd-man: check-doc-packages

include systemd/install.mk
include mk/bench.mk
include mk/prompt.mk
include mk/pam.mk
include mk/ssh.mk
include mk/password-helper.mk
include mk/tpm.mk
include mk/desktop.mk
