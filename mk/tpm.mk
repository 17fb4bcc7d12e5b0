# Keys in the TPM (issue 32). Included by the top-level Makefile.
#   make test-tpm   Tests/tpm/tpm.sh against swtpm on 127.0.0.1 (Store=tpm without a TPM, keys made
#                   and signing in the TPM, a restart, 1,000 signatures and no transient object
#                   left, the state directory next to a fresh TPM, the TPM going away, root with
#                   tpm2-tools and the state directory unable to sign), then Tests/ssh/openssh.sh
#                   with its keys in swtpm (real OpenSSH through localauthctl ssh-agent; needs root)
# The Swift suites that start swtpm (TPMKeysTests, TPMStoreTests) run in `make check` and are
# skipped, saying so, without swtpm.

TPM_PACKAGES := swtpm swtpm-tools tpm2-tools libtss2-dev xxd python3-cryptography

.PHONY: tpm-deps test-tpm

tpm-deps:
	$(call install_packages,$(TPM_PACKAGES),tpm-deps)

test-tpm: tpm-deps ssh-deps build
	BINDIR=$$($(SWIFT) build --show-bin-path) Tests/tpm/tpm.sh
	BINDIR=$$($(SWIFT) build --show-bin-path) Tests/tpm/openssh-tpm.sh
