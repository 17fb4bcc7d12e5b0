# The desktop prompt (issue 34): localauthd-prompt, built from the Swift package, and what surrounds
# it: its package (debian/control: localauthd-prompt, apart from the daemon's so that servers never
# pull GTK), its user unit (systemd/localauthd-prompt.service) and its bench row. Included by the
# top-level Makefile.
#   make prompt-release    the release build of localauthd-prompt alone
#   make install-prompt    (systemd/install.mk) the binary, the user unit and the manual page
#   make bench-prompt      bench/prompt-bench.sh: time to the first window, idle RSS (make bench runs it)

# Building it: GTK 4's C API.
PROMPT_BUILD_PACKAGES := libgtk-4-dev
# Running its tests and its bench: an X server without a screen, xdotool and xwininfo to find its
# window, a private session bus and the fake notification server (system Python's dbus and gi).
PROMPT_TEST_PACKAGES := xvfb xdotool x11-utils dbus-daemon python3-dbus python3-gi

.PHONY: prompt-deps prompt-release bench-prompt

prompt-deps:
	$(call install_packages,$(PROMPT_BUILD_PACKAGES) $(PROMPT_TEST_PACKAGES),prompt-deps)

prompt-release:
	$(call require_packages,$(PROMPT_BUILD_PACKAGES),prompt-deps)
	$(SWIFT) build -c release --static-swift-stdlib --product localauthd-prompt

# make install-prompt builds what it installs.
install-localauthd-prompt-binary: prompt-release
localauthd-prompt-man: check-doc-packages

bench-prompt:
	swift build -c release --scratch-path $(BENCH_SCRATCH) --product localauthd
	swift build -c release --scratch-path $(BENCH_SCRATCH) --product localauthctl
	swift build -c release --scratch-path $(BENCH_SCRATCH) --product localauthd-prompt
	bench/prompt-bench.sh $(BENCH_SCRATCH)/release/localauthd $(BENCH_SCRATCH)/release/localauthctl \
		$(BENCH_SCRATCH)/release/localauthd-prompt
