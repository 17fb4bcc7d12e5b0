# mk/pam.mk: the PAM module pam_localauthd.so (C; links libc, libpam and libsystemd only), included by
# the top-level Makefile. `make pam` builds .build/pam/pam_localauthd.so; `make install` also puts it
# into the multiarch PAM directory; `make test-pam` runs its pam_wrapper + pamtester tests; `make
# bench-pam` times it against the real daemon.

PAM_CC ?= cc
PAM_SOURCES := $(wildcard pam/*.c)
PAM_HEADERS := $(wildcard pam/*.h)
PAM_CFLAGS := -std=gnu11 -D_GNU_SOURCE -O2 -g -fPIC -fvisibility=hidden -Wall -Wextra -Werror -Wformat=2 -Wno-format-truncation \
	-D_FORTIFY_SOURCE=2 -fstack-protector-strong
PAM_LDFLAGS := -shared -Wl,-z,relro,-z,now,-z,defs -Wl,--as-needed
PAM_LIBS := -lpam -lsystemd
PAM_MODULE := .build/pam/pam_localauthd.so
PAM_MODULE_ASAN := .build/pam-asan/pam_localauthd.so
PAM_DIR = $(PREFIX)/lib/$(shell dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)/security
# Building the module needs the first two (checked); its tests need the rest too (make pam-deps).
PAM_BUILD_PACKAGES := libpam0g-dev gcc
PAM_DEB_PACKAGES := $(PAM_BUILD_PACKAGES) libpam-wrapper pamtester sudo gdb

.PHONY: pam pam-deps check-pam-packages test-pam install-pam uninstall-pam

pam-deps:
	$(call install_packages,$(PAM_DEB_PACKAGES),pam-deps)

check-pam-packages:
	$(call require_packages,$(PAM_BUILD_PACKAGES),pam-deps)

pam: check-pam-packages $(PAM_MODULE)

$(PAM_MODULE): $(PAM_SOURCES) $(PAM_HEADERS)
	@mkdir -p $(dir $@)
	$(PAM_CC) $(PAM_CFLAGS) $(PAM_LDFLAGS) -o $@ $(PAM_SOURCES) $(PAM_LIBS)

# The same module under AddressSanitizer, for the pam_wrapper tests.
$(PAM_MODULE_ASAN): $(PAM_SOURCES) $(PAM_HEADERS)
	@mkdir -p $(dir $@)
	$(PAM_CC) $(filter-out -D_FORTIFY_SOURCE=2 -O2,$(PAM_CFLAGS)) -O1 -fsanitize=address -fno-omit-frame-pointer \
		-shared -o $@ $(PAM_SOURCES) $(PAM_LIBS)

# su's shape for the tests: the real uid the requester's, the effective uid root (Tests/pam).
PAM_REQUESTER_HELPER := .build/pam/pam_as_requester
$(PAM_REQUESTER_HELPER): Tests/pam/pam_as_requester.c
	@mkdir -p $(dir $@)
	$(PAM_CC) -std=gnu11 -O1 -Wall -Wextra -Werror -o $@ $< -lpam -lpam_misc

test-pam: pam-deps $(PAM_MODULE) $(PAM_MODULE_ASAN) $(PAM_REQUESTER_HELPER)
	$(SWIFT) build
	LOCALAUTHD=$$($(SWIFT) build --show-bin-path)/localauthd PAM_MODULE=$(PAM_MODULE) \
		PAM_MODULE_ASAN=$(PAM_MODULE_ASAN) PAM_REQUESTER_HELPER=$(PAM_REQUESTER_HELPER) \
		python3 Tests/pam/pam_module_tests.py
	@echo "=== the same cases with the module under AddressSanitizer (leak checks on)"
	LOCALAUTHD=$$($(SWIFT) build --show-bin-path)/localauthd PAM_MODULE=$(PAM_MODULE_ASAN) \
		PAM_MODULE_ASAN=$(PAM_MODULE_ASAN) PAM_REQUESTER_HELPER=$(PAM_REQUESTER_HELPER) \
		python3 Tests/pam/pam_module_tests.py

# The module's own time to a yes against the real daemon (a face scripted to MATCH), next to pam_permit
# and, with PAM_MODULE_BEFORE=path, another build of the module. Prints figures; asserts nothing.
.PHONY: bench-pam
bench-pam: pam-deps $(PAM_MODULE) $(PAM_REQUESTER_HELPER)
	$(SWIFT) build
	LOCALAUTHD=$$($(SWIFT) build --show-bin-path)/localauthd PAM_MODULE=$(PAM_MODULE) \
		PAM_REQUESTER_HELPER=$(PAM_REQUESTER_HELPER) python3 Tests/pam/pam_latency.py

install-pam: $(PAM_MODULE)
	$(INSTALL) -D -m 0644 $(PAM_MODULE) $(DESTDIR)$(PAM_DIR)/pam_localauthd.so
	if [ "$(STRIP_BINARIES)" != no ]; then \
	  $(or $(STRIP),strip) --strip-unneeded --remove-section=.comment $(DESTDIR)$(PAM_DIR)/pam_localauthd.so; \
	fi

uninstall-pam:
	rm -f $(DESTDIR)$(PAM_DIR)/pam_localauthd.so
install: install-pam
uninstall: uninstall-pam

# libFuzzer over the module's JSON reader (the same clang and sanitizers as `make fuzz`).
PAM_FUZZ_SECONDS ?= 60
.PHONY: fuzz-pam
fuzz-pam:
	@mkdir -p .build/pam-fuzz
	clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Wall -Wextra -Werror \
		-o .build/pam-fuzz/json_reader_fuzz pam/fuzz/json_reader_fuzz.c pam/json_reader.c
	mkdir -p .build/pam-fuzz/corpus && cp pam/fuzz/corpus/* .build/pam-fuzz/corpus/
	.build/pam-fuzz/json_reader_fuzz -max_total_time=$(PAM_FUZZ_SECONDS) -max_len=4096 .build/pam-fuzz/corpus
