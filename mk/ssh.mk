# localauthctl ssh-agent with real OpenSSH and git (issue 22). Included by the top-level Makefile.
#   make test-ssh   Tests/ssh/openssh.sh: ssh-add, ssh into a private sshd on 127.0.0.1,
#                   ssh-keygen -Y sign, git commit -S, against the debug build (needs root)
#   make test-git-signing  Tests/ssh/git-signing.sh: docs/rights-and-keys.md's git lines, as written

SSH_PACKAGES := openssh-client openssh-server git util-linux python3 libpam-ssh-agent-auth libpam-wrapper pamtester

.PHONY: ssh-deps test-ssh

ssh-deps:
	$(call install_packages,$(SSH_PACKAGES),ssh-deps)

test-ssh: ssh-deps build
	BINDIR=$$($(SWIFT) build --show-bin-path) Tests/ssh/openssh.sh

# docs/rights-and-keys.md's git signing lines, run as written (Tests/ssh/git-signing.sh; no root).
.PHONY: test-git-signing
test-git-signing: ssh-deps build
	BINDIR=$$($(SWIFT) build --show-bin-path) Tests/ssh/git-signing.sh
