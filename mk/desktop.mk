# The desktop prompt agent, localauthd-prompt (issue 34). Included by the top-level Makefile.
#   make test-desktop   Tests/desktop/prompt.sh: the program under Xvfb as the user's agent of a demo
#                       daemon (a window naming the app and the reason, Escape → userCancel, two face
#                       misses → the fallback button → a typed passcode → success, a touch elsewhere
#                       closes the window), photographed into docs/images/; then under Weston's
#                       headless backend, read through the accessibility tree (Tests/desktop/wayland.sh);
#                       then an ssh login to a private sshd through the agent, the window and the
#                       notification naming the verified host (Tests/desktop/ssh-login.sh: root only,
#                       SKIP otherwise). The first two need no root.

DESKTOP_PACKAGES := xvfb x11-utils xdotool imagemagick weston dbus-daemon at-spi2-core python3-gi gir1.2-atspi-2.0 gir1.2-gtk-4.0 python3-dbus openssh-client openssh-server

.PHONY: desktop-deps test-desktop

desktop-deps:
	$(call install_packages,$(DESKTOP_PACKAGES),desktop-deps)

test-desktop: build
	$(call require_packages,$(DESKTOP_PACKAGES),desktop-deps)
	Tests/desktop/prompt.sh $$($(SWIFT) build --show-bin-path)
	Tests/desktop/wayland.sh $$($(SWIFT) build --show-bin-path)
	Tests/desktop/ssh-login.sh $$($(SWIFT) build --show-bin-path)
