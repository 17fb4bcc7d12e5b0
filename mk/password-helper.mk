# mk/password-helper.mk: localauthd-password-helper (C; links libc and libpam only), the root helper
# that checks a login password for the daemon (helper/localauthd-password-helper.c, docs/owners-and-agents.md
# "The login password"), included by the top-level Makefile. `make password-helper` builds
# .build/helper/localauthd-password-helper; `make install` also puts it into $(PREFIX)/libexec with
# its socket and service units and the PAM service file; `make test-password-helper` runs its tests
# (root: a test account made with useradd, the PAM service in a pam_wrapper directory).

PASSWORD_HELPER := .build/helper/localauthd-password-helper
PASSWORD_HELPER_SOURCES := helper/localauthd-password-helper.c
# The PAM module's flags (mk/pam.mk), as an executable.
PASSWORD_HELPER_CFLAGS := $(filter-out -fPIC -fvisibility=hidden,$(PAM_CFLAGS)) -fPIE
PASSWORD_HELPER_LDFLAGS := -pie -Wl,-z,relro,-z,now,-z,defs -Wl,--as-needed
# gdb: the test searches a core of the helper for the password.
PASSWORD_HELPER_TEST_PACKAGES := $(PAM_DEB_PACKAGES) gdb passwd

.PHONY: password-helper password-helper-deps test-password-helper install-password-helper uninstall-password-helper

password-helper: check-pam-packages $(PASSWORD_HELPER)

password-helper-deps:
	$(call install_packages,$(PASSWORD_HELPER_TEST_PACKAGES),password-helper-deps)

$(PASSWORD_HELPER): $(PASSWORD_HELPER_SOURCES)
	@mkdir -p $(dir $@)
	$(PAM_CC) $(PASSWORD_HELPER_CFLAGS) $(PASSWORD_HELPER_LDFLAGS) -o $@ $(PASSWORD_HELPER_SOURCES) -lpam

test-password-helper: password-helper-deps $(PASSWORD_HELPER)
	PASSWORD_HELPER=$(PASSWORD_HELPER) python3 Tests/password-helper/password_helper_tests.py

install-password-helper: $(PASSWORD_HELPER)
	$(INSTALL) -D -m 0755 $(PASSWORD_HELPER) $(DESTDIR)$(LOCALAUTHD_LIBEXECDIR)/localauthd-password-helper
	if [ "$(STRIP_BINARIES)" != no ]; then \
	  $(or $(STRIP),strip) --strip-unneeded --remove-section=.comment $(DESTDIR)$(LOCALAUTHD_LIBEXECDIR)/localauthd-password-helper; \
	fi
	$(INSTALL) -D -m 0644 $(LOCALAUTHD_SYSTEMD_SRC)/localauthd-password.socket $(DESTDIR)$(LOCALAUTHD_UNITDIR)/localauthd-password.socket
	sed 's|/usr/libexec/localauthd-password-helper|$(LOCALAUTHD_LIBEXECDIR)/localauthd-password-helper|' \
		$(LOCALAUTHD_SYSTEMD_SRC)/localauthd-password@.service > $(DESTDIR)$(LOCALAUTHD_UNITDIR)/localauthd-password@.service
	chmod 0644 $(DESTDIR)$(LOCALAUTHD_UNITDIR)/localauthd-password@.service
	$(INSTALL) -D -m 0644 $(LOCALAUTHD_SYSTEMD_SRC)/localauthd-password.pam $(DESTDIR)$(SYSCONFDIR)/pam.d/localauthd-password

uninstall-password-helper:
	rm -f $(DESTDIR)$(LOCALAUTHD_LIBEXECDIR)/localauthd-password-helper \
		$(DESTDIR)$(LOCALAUTHD_UNITDIR)/localauthd-password.socket \
		$(DESTDIR)$(LOCALAUTHD_UNITDIR)/localauthd-password@.service
	if cmp -s $(LOCALAUTHD_SYSTEMD_SRC)/localauthd-password.pam $(DESTDIR)$(SYSCONFDIR)/pam.d/localauthd-password; then \
	  rm -f $(DESTDIR)$(SYSCONFDIR)/pam.d/localauthd-password; \
	fi
install: install-password-helper
uninstall: uninstall-password-helper
