# systemd/install.mk: installation of localauthd, included by the top-level
# Makefile. Honours DESTDIR (staging root, as Debian packaging uses it) and
# PREFIX (default /usr). Installs files only: no systemctl, no sysusers run;
# package maintainer scripts (dh_installsystemd, dh_installsysusers) do that.
#
#   make install DESTDIR=debian/tmp
#   make install PREFIX=/usr/local BINDIR_BUILD=.build/x86_64-unknown-linux-gnu/release

LOCALAUTHD_SYSTEMD_SRC := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

PREFIX ?= /usr
DESTDIR ?=
SYSCONFDIR ?= /etc
BINDIR_BUILD ?= .build/release
INSTALL ?= install

LOCALAUTHD_LIBEXECDIR = $(PREFIX)/libexec
LOCALAUTHD_BINDIR = $(PREFIX)/bin
LOCALAUTHD_UNITDIR = $(PREFIX)/lib/systemd/system
LOCALAUTHD_CATALOGDIR = $(PREFIX)/lib/systemd/catalog
LOCALAUTHD_SYSUSERSDIR = $(PREFIX)/lib/sysusers.d
LOCALAUTHD_DOCDIR = $(PREFIX)/share/doc/localauthd

.PHONY: install install-localauthd-binaries install-localauthd-systemd install-localauthd-config

install: install-localauthd-binaries install-localauthd-systemd install-localauthd-config

# The daemon is not meant to be run by hand: /usr/libexec. The client tool goes on PATH.
install-localauthd-binaries:
	$(INSTALL) -D -m 0755 $(BINDIR_BUILD)/localauthd $(DESTDIR)$(LOCALAUTHD_LIBEXECDIR)/localauthd
	$(INSTALL) -D -m 0755 $(BINDIR_BUILD)/localauthctl $(DESTDIR)$(LOCALAUTHD_BINDIR)/localauthctl

# The service's ExecStart= follows PREFIX.
install-localauthd-systemd:
	$(INSTALL) -D -m 0644 $(LOCALAUTHD_SYSTEMD_SRC)/localauthd.socket $(DESTDIR)$(LOCALAUTHD_UNITDIR)/localauthd.socket
	$(INSTALL) -d -m 0755 $(DESTDIR)$(LOCALAUTHD_UNITDIR)
	sed 's|^ExecStart=/usr/libexec/localauthd|ExecStart=$(LOCALAUTHD_LIBEXECDIR)/localauthd|' \
		$(LOCALAUTHD_SYSTEMD_SRC)/localauthd.service > $(DESTDIR)$(LOCALAUTHD_UNITDIR)/localauthd.service
	chmod 0644 $(DESTDIR)$(LOCALAUTHD_UNITDIR)/localauthd.service
	$(INSTALL) -D -m 0644 $(LOCALAUTHD_SYSTEMD_SRC)/localauthd.catalog $(DESTDIR)$(LOCALAUTHD_CATALOGDIR)/localauthd.catalog
	$(INSTALL) -D -m 0644 $(LOCALAUTHD_SYSTEMD_SRC)/localauthd.sysusers $(DESTDIR)$(LOCALAUTHD_SYSUSERSDIR)/localauthd.conf

# The documented example is the conffile; a copy stays in the docs.
install-localauthd-config:
	$(INSTALL) -D -m 0644 $(LOCALAUTHD_SYSTEMD_SRC)/localauthd.conf $(DESTDIR)$(SYSCONFDIR)/localauthd/localauthd.conf
	$(INSTALL) -D -m 0644 $(LOCALAUTHD_SYSTEMD_SRC)/localauthd.conf $(DESTDIR)$(LOCALAUTHD_DOCDIR)/localauthd.conf.example
