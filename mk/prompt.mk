# The desktop prompt (issue 34): localauthd-prompt, built from the Swift package, and what surrounds
# it: its package (debian/control: localauthd-prompt, apart from the daemon's so that servers never
# pull GTK), its user unit (systemd/localauthd-prompt.service) and its bench row. Included by the
# top-level Makefile.
#   make prompt-release    the release builds of localauthd-prompt and its window process alone
#   make install-prompt    (systemd/install.mk) the binary, the user unit and the manual page
#   make bench-prompt      bench/prompt-bench.sh: time to the first window, idle RSS (make bench runs it)

# Building it: GTK 4's C API (also in debian/control's Build-Depends, so `make deb` installs it).
PROMPT_BUILD_PACKAGES := libgtk-4-dev
# Its bench row: an X server without a screen and xdotool to find its window (the notification
# tests' private session bus and fake server need dbus-daemon, python3-dbus and python3-gi, which
# DEB_PACKAGES has).
PROMPT_BENCH_PACKAGES := xvfb xdotool

.PHONY: prompt-deps prompt-build-deps prompt-release bench-prompt

prompt-deps: prompt-build-deps
	$(call install_packages,$(PROMPT_BENCH_PACKAGES),prompt-deps)

prompt-build-deps:
	$(call install_packages,$(PROMPT_BUILD_PACKAGES),prompt-build-deps)

# make deb builds the prompt's package too.
deb-deps: prompt-build-deps

prompt-release:
	$(call require_packages,$(PROMPT_BUILD_PACKAGES),prompt-build-deps)
	$(SWIFT) build -c release --static-swift-stdlib --product localauthd-prompt
	$(SWIFT) build -c release --static-swift-stdlib --product localauthd-prompt-window

# make install-prompt builds what it installs.
install-localauthd-prompt-binary: prompt-release
localauthd-prompt-man: check-doc-packages

# The program is measured as its package ships it (prompt-release: the Swift libraries linked in).
bench-prompt:
	swift build -c release --scratch-path $(BENCH_SCRATCH) --product localauthd
	swift build -c release --scratch-path $(BENCH_SCRATCH) --product localauthctl
	swift build -c release --static-swift-stdlib --scratch-path $(BENCH_SCRATCH) --product localauthd-prompt
	swift build -c release --scratch-path $(BENCH_SCRATCH) --static-swift-stdlib --product localauthd-prompt-window
	cc -O2 -Wall -o $(BENCH_SCRATCH)/gtk-floor bench/gtk-floor.c $$(pkg-config --cflags --libs gtk4)
	bench/prompt-bench.sh $(BENCH_SCRATCH)/release/localauthd $(BENCH_SCRATCH)/release/localauthctl \
		$(BENCH_SCRATCH)/release/localauthd-prompt 5 $(BENCH_SCRATCH)/gtk-floor
