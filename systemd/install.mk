# systemd/install.mk: installation of localauthd, included by the top-level
# Makefile (which builds the release binaries first). Honours DESTDIR (staging
# root, as Debian packaging uses it) and PREFIX (default /usr). Installs files
# only: no systemctl, no sysusers run; package maintainer scripts
# (dh_installsystemd, dh_installsysusers) or the administrator do that.
#
#   make install                       build, then install into / (PREFIX=/usr)
#   make install DESTDIR=debian/tmp    stage (debian/rules passes STRIP_BINARIES=no:
#                                      dh_strip strips and keeps the symbols in -dbgsym)
#   make uninstall                     remove what install put there (not state in
#                                      /var/lib/localauthd, not a changed localauthd.conf)
#
# Included alone (Tests/systemd/nspawn.sh), set BINDIR_BUILD to the binaries.

LOCALAUTHD_SYSTEMD_SRC := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
LOCALAUTHD_REPO := $(patsubst %/,%,$(dir $(LOCALAUTHD_SYSTEMD_SRC)))

PREFIX ?= /usr
DESTDIR ?=
SYSCONFDIR ?= /etc
BINDIR_BUILD ?= .build/release
INSTALL ?= install
STRIP ?= strip
# yes: strip the installed binaries (unstripped, localauthctl is ~70 MB of symbols).
STRIP_BINARIES ?= yes
# Manual pages, built from man/*.scd with scdoc (Debian package scdoc).
LOCALAUTHD_MAN_BUILD ?= $(LOCALAUTHD_REPO)/.build/man
SCDOC ?= scdoc

LOCALAUTHD_LIBEXECDIR = $(PREFIX)/libexec
LOCALAUTHD_BINDIR = $(PREFIX)/bin
LOCALAUTHD_UNITDIR = $(PREFIX)/lib/systemd/system
LOCALAUTHD_USERUNITDIR = $(PREFIX)/lib/systemd/user
LOCALAUTHD_CATALOGDIR = $(PREFIX)/lib/systemd/catalog
LOCALAUTHD_SYSUSERSDIR = $(PREFIX)/lib/sysusers.d
LOCALAUTHD_DOCDIR = $(PREFIX)/share/doc/localauthd
LOCALAUTHD_MANDIR = $(PREFIX)/share/man
LOCALAUTHD_BASHCOMPLETIONDIR = $(PREFIX)/share/bash-completion/completions
LOCALAUTHD_ZSHCOMPLETIONDIR = $(PREFIX)/share/zsh/vendor-completions
LOCALAUTHD_MAN_PAGES = localauthd.8 localauthctl.1 localauthd.conf.5 pam_localauthd.8 localauthd-password-helper.8

# Everything install puts down, relative to DESTDIR (uninstall removes these).
LOCALAUTHD_INSTALLED_FILES = \
	$(LOCALAUTHD_LIBEXECDIR)/localauthd \
	$(LOCALAUTHD_BINDIR)/localauthctl \
	$(LOCALAUTHD_UNITDIR)/localauthd.socket \
	$(LOCALAUTHD_UNITDIR)/localauthd.service \
	$(LOCALAUTHD_USERUNITDIR)/localauthd-ssh-agent.socket \
	$(LOCALAUTHD_USERUNITDIR)/localauthd-ssh-agent.service \
	$(LOCALAUTHD_CATALOGDIR)/localauthd.catalog \
	$(LOCALAUTHD_SYSUSERSDIR)/localauthd.conf \
	$(LOCALAUTHD_DOCDIR)/localauthd.conf.example \
	$(foreach page,$(LOCALAUTHD_MAN_PAGES),$(LOCALAUTHD_MANDIR)/man$(subst .,,$(suffix $(page)))/$(page)) \
	$(LOCALAUTHD_BASHCOMPLETIONDIR)/localauthctl \
	$(LOCALAUTHD_ZSHCOMPLETIONDIR)/_localauthctl

# The desktop prompt (the localauthd-prompt package, apart so servers never pull GTK): its binaries
# (the agent, and the window process it starts beside it), its user unit and its manual page. `make install-prompt` / `make uninstall-prompt`.
LOCALAUTHD_PROMPT_MAN_PAGES = localauthd-prompt.1
LOCALAUTHD_PROMPT_INSTALLED_FILES = \
	$(LOCALAUTHD_BINDIR)/localauthd-prompt \
	$(LOCALAUTHD_BINDIR)/localauthd-prompt-window \
	$(LOCALAUTHD_USERUNITDIR)/localauthd-prompt.service \
	$(LOCALAUTHD_MANDIR)/man1/localauthd-prompt.1 \
	$(LOCALAUTHD_MANDIR)/man1/localauthd-prompt-window.1

.PHONY: install-prompt uninstall-prompt install-localauthd-prompt-binary localauthd-prompt-man

.PHONY: install uninstall localauthd-man install-localauthd-binaries install-localauthd-systemd install-localauthd-config \
	install-localauthd-man install-localauthd-completion

install: install-localauthd-binaries install-localauthd-systemd install-localauthd-config \
	install-localauthd-man install-localauthd-completion

# The daemon is not meant to be run by hand: /usr/libexec. The client tool goes on PATH.
install-localauthd-binaries:
	$(INSTALL) -D -m 0755 $(BINDIR_BUILD)/localauthd $(DESTDIR)$(LOCALAUTHD_LIBEXECDIR)/localauthd
	$(INSTALL) -D -m 0755 $(BINDIR_BUILD)/localauthctl $(DESTDIR)$(LOCALAUTHD_BINDIR)/localauthctl
	# ELF files only (a test may install stand-in scripts).
	if [ "$(STRIP_BINARIES)" = yes ]; then \
	  for binary in $(DESTDIR)$(LOCALAUTHD_LIBEXECDIR)/localauthd $(DESTDIR)$(LOCALAUTHD_BINDIR)/localauthctl; do \
	    if [ "$$(head -c 4 $$binary | tail -c 3)" = ELF ]; then \
	      $(STRIP) --strip-unneeded --remove-section=.comment --remove-section=.note $$binary || exit 1; \
	    fi; \
	  done; \
	fi

# The service's ExecStart= follows PREFIX.
install-localauthd-systemd:
	$(INSTALL) -D -m 0644 $(LOCALAUTHD_SYSTEMD_SRC)/localauthd.socket $(DESTDIR)$(LOCALAUTHD_UNITDIR)/localauthd.socket
	$(INSTALL) -d -m 0755 $(DESTDIR)$(LOCALAUTHD_UNITDIR)
	sed 's|^ExecStart=/usr/libexec/localauthd|ExecStart=$(LOCALAUTHD_LIBEXECDIR)/localauthd|' \
		$(LOCALAUTHD_SYSTEMD_SRC)/localauthd.service > $(DESTDIR)$(LOCALAUTHD_UNITDIR)/localauthd.service
	chmod 0644 $(DESTDIR)$(LOCALAUTHD_UNITDIR)/localauthd.service
	$(INSTALL) -D -m 0644 $(LOCALAUTHD_SYSTEMD_SRC)/localauthd-ssh-agent.socket $(DESTDIR)$(LOCALAUTHD_USERUNITDIR)/localauthd-ssh-agent.socket
	sed 's|^ExecStart=/usr/bin/localauthctl|ExecStart=$(LOCALAUTHD_BINDIR)/localauthctl|' \
		$(LOCALAUTHD_SYSTEMD_SRC)/localauthd-ssh-agent.service > $(DESTDIR)$(LOCALAUTHD_USERUNITDIR)/localauthd-ssh-agent.service
	chmod 0644 $(DESTDIR)$(LOCALAUTHD_USERUNITDIR)/localauthd-ssh-agent.service
	$(INSTALL) -D -m 0644 $(LOCALAUTHD_SYSTEMD_SRC)/localauthd.catalog $(DESTDIR)$(LOCALAUTHD_CATALOGDIR)/localauthd.catalog
	$(INSTALL) -D -m 0644 $(LOCALAUTHD_SYSTEMD_SRC)/localauthd.sysusers $(DESTDIR)$(LOCALAUTHD_SYSUSERSDIR)/localauthd.conf

# The documented example is the conffile; a copy stays in the docs. Drop-ins go in
# /etc/localauthd/localauthd.conf.d/ (administrator) and /usr/lib/localauthd/localauthd.conf.d/.
install-localauthd-config:
	$(INSTALL) -D -m 0644 $(LOCALAUTHD_SYSTEMD_SRC)/localauthd.conf $(DESTDIR)$(SYSCONFDIR)/localauthd/localauthd.conf
	$(INSTALL) -D -m 0644 $(LOCALAUTHD_SYSTEMD_SRC)/localauthd.conf $(DESTDIR)$(LOCALAUTHD_DOCDIR)/localauthd.conf.example

localauthd-man: $(addprefix $(LOCALAUTHD_MAN_BUILD)/,$(LOCALAUTHD_MAN_PAGES))

$(LOCALAUTHD_MAN_BUILD)/%: $(LOCALAUTHD_REPO)/man/%.scd
	@mkdir -p $(LOCALAUTHD_MAN_BUILD)
	$(SCDOC) < $< > $@.tmp && mv $@.tmp $@

install-localauthd-man: localauthd-man
	for page in $(LOCALAUTHD_MAN_PAGES); do \
	  section=$${page##*.}; \
	  $(INSTALL) -D -m 0644 $(LOCALAUTHD_MAN_BUILD)/$$page $(DESTDIR)$(LOCALAUTHD_MANDIR)/man$$section/$$page || exit 1; \
	done

install-localauthd-completion:
	$(INSTALL) -D -m 0644 $(LOCALAUTHD_REPO)/completion/localauthctl.bash $(DESTDIR)$(LOCALAUTHD_BASHCOMPLETIONDIR)/localauthctl
	$(INSTALL) -D -m 0644 $(LOCALAUTHD_REPO)/completion/_localauthctl $(DESTDIR)$(LOCALAUTHD_ZSHCOMPLETIONDIR)/_localauthctl

# Removes every installed file and the directories install made, if empty. The configuration
# file goes only when unchanged; state (/var/lib/localauthd) and drop-ins stay.
uninstall:
	for file in $(filter-out $(SYSCONFDIR)/%,$(LOCALAUTHD_INSTALLED_FILES)); do rm -f "$(DESTDIR)$$file"; done
	if cmp -s $(LOCALAUTHD_SYSTEMD_SRC)/localauthd.conf $(DESTDIR)$(SYSCONFDIR)/localauthd/localauthd.conf; then \
	  rm -f $(DESTDIR)$(SYSCONFDIR)/localauthd/localauthd.conf; \
	  rmdir $(DESTDIR)$(SYSCONFDIR)/localauthd 2>/dev/null || true; \
	else \
	  echo "uninstall: keeping $(DESTDIR)$(SYSCONFDIR)/localauthd/localauthd.conf (changed or absent)"; \
	fi
	rmdir $(DESTDIR)$(LOCALAUTHD_DOCDIR) 2>/dev/null || true

# The desktop prompt, installed apart from the daemon (debian/rules puts it into its own package).
install-prompt: install-localauthd-prompt-binary localauthd-prompt-man
	$(INSTALL) -d -m 0755 $(DESTDIR)$(LOCALAUTHD_USERUNITDIR)
	sed 's|^ExecStart=/usr/bin/localauthd-prompt|ExecStart=$(LOCALAUTHD_BINDIR)/localauthd-prompt|' \
		$(LOCALAUTHD_SYSTEMD_SRC)/localauthd-prompt.service > $(DESTDIR)$(LOCALAUTHD_USERUNITDIR)/localauthd-prompt.service
	chmod 0644 $(DESTDIR)$(LOCALAUTHD_USERUNITDIR)/localauthd-prompt.service
	$(INSTALL) -D -m 0644 $(LOCALAUTHD_MAN_BUILD)/localauthd-prompt.1 $(DESTDIR)$(LOCALAUTHD_MANDIR)/man1/localauthd-prompt.1
	# The window process is described in the agent's page (its description and FILES): a .so stub names it.
	printf '.so man1/localauthd-prompt.1\n' > $(DESTDIR)$(LOCALAUTHD_MANDIR)/man1/localauthd-prompt-window.1
	chmod 0644 $(DESTDIR)$(LOCALAUTHD_MANDIR)/man1/localauthd-prompt-window.1

install-localauthd-prompt-binary:
	for program in localauthd-prompt localauthd-prompt-window; do \
	  $(INSTALL) -D -m 0755 $(BINDIR_BUILD)/$$program $(DESTDIR)$(LOCALAUTHD_BINDIR)/$$program || exit 1; \
	  if [ "$(STRIP_BINARIES)" = yes ] && [ "$$(head -c 4 $(DESTDIR)$(LOCALAUTHD_BINDIR)/$$program | tail -c 3)" = ELF ]; then \
	    $(STRIP) --strip-unneeded --remove-section=.comment --remove-section=.note $(DESTDIR)$(LOCALAUTHD_BINDIR)/$$program; \
	  fi; \
	done

localauthd-prompt-man: $(addprefix $(LOCALAUTHD_MAN_BUILD)/,$(LOCALAUTHD_PROMPT_MAN_PAGES))

uninstall-prompt:
	for file in $(LOCALAUTHD_PROMPT_INSTALLED_FILES); do rm -f "$(DESTDIR)$$file"; done
