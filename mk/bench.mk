# Performance, fuzzing and sanitizer targets (issue 6). Included by the top-level Makefile.
#   make bench      release build, C floor, load generator; table on stdout, JSON in bench/results.json;
#                   then the fprintd row (bench/fprintd-bench.sh: localauthd + fprintd vs fprintd directly)
#                   and the SSH agent row (bench/ssh-agent-bench.sh: a signature through
#                   localauthctl ssh-agent + localauthd vs OpenSSH's ssh-agent with a file key)
#                   and the TPM row (bench/tpm-bench.sh: that signature with the key in swtpm vs
#                   tpm2_sign alone on the same swtpm vs the file-sealed key; skipped without swtpm)
#                   and the desktop prompt row (bench/prompt-bench.sh: localauthd-prompt's time to
#                   its first window under Xvfb and its idle RSS; skipped without the program or Xvfb)
#   make bench-profile  instructions (1 and 256 clients), allocations and system calls per request
#                   (bench/profile.sh; PROFILE_STEPS=kernel: the daemon's and the floor's system
#                   calls, switches and wake-ups per request under perf's tracepoints)
#   make bench-dispatch instructions and allocations per canEvaluatePolicy, evaluatePolicy and
#                   broker.status of BENCH_BASE (a git ref, default main) against this tree
#                   (bench/dispatch-compare.sh)
#   make fuzz       libFuzzer over LineFramer + IncomingFrame.decode + JSONParser and the SSH agent
#                   message decoder (SSHAgent) for FUZZ_SECONDS
#   make sanitize   unit tests under ThreadSanitizer and AddressSanitizer

BENCH_SCRATCH ?= $(CURDIR)/.build-bench
FUZZ_SCRATCH ?= $(CURDIR)/.build-bench-fuzz
FUZZ_SECONDS ?= 60
FUZZ_JOBS ?= 1
BENCH_ARGS ?=
# The load generator runs on BENCH_CPU, the servers on BENCH_SERVER_CPU (see PERFORMANCE-NOTES).
BENCH_CPU ?= 1
BENCH_SERVER_CPU ?= 0
SANITIZE_FILTER ?= LocalAuthProtocolTests|SensorsTests|LocalAuthBrokerTests

.PHONY: bench bench-build fuzz fuzz-build sanitize sanitize-thread sanitize-address

bench-build:
	swift build -c release --scratch-path $(BENCH_SCRATCH) --product localauthd
	swift build -c release --scratch-path $(BENCH_SCRATCH) --product localauthd-bench
	swift build -c release --scratch-path $(BENCH_SCRATCH) --product localauthctl
	cc -O2 -Wall -o $(BENCH_SCRATCH)/floor bench/floor.c
	cc -O2 -Wall -o $(BENCH_SCRATCH)/fprintd-cycle bench/fprintd-cycle.c $$(pkg-config --cflags --libs libsystemd)

bench: bench-build
	taskset -c $(BENCH_CPU) $(BENCH_SCRATCH)/release/localauthd-bench \
		--daemon $(BENCH_SCRATCH)/release/localauthd --floor $(BENCH_SCRATCH)/floor \
		--json bench/results.json --server-cpu $(BENCH_SERVER_CPU) $(BENCH_ARGS)
	@if [ "$$(id -u)" = 0 ] && [ -x /usr/libexec/fprintd ]; then \
	  bench/fprintd-bench.sh $(BENCH_SCRATCH)/release/localauthd $(BENCH_SCRATCH)/fprintd-cycle; \
	else echo "fprintd row skipped: needs root and fprintd (make deps)"; fi
	@if command -v ssh-agent >/dev/null; then \
	  bench/ssh-agent-bench.sh $(BENCH_SCRATCH)/release/localauthd $(BENCH_SCRATCH)/release/localauthctl; \
	else echo "SSH agent row skipped: needs openssh-client (make ssh-deps)"; fi
	@if command -v swtpm >/dev/null && command -v tpm2_sign >/dev/null; then \
	  bench/tpm-bench.sh $(BENCH_SCRATCH)/release/localauthd $(BENCH_SCRATCH)/release/localauthctl; \
	else echo "TPM row skipped: needs swtpm and tpm2-tools (make tpm-deps)"; fi
	@swift build -c release --static-swift-stdlib --scratch-path $(BENCH_SCRATCH) --product localauthd-prompt >/dev/null 2>&1 || true
	@swift build -c release --static-swift-stdlib --scratch-path $(BENCH_SCRATCH) --product localauthd-prompt-window >/dev/null 2>&1 || true
	@cc -O2 -Wall -o $(BENCH_SCRATCH)/gtk-floor bench/gtk-floor.c $$(pkg-config --cflags --libs gtk4 2>/dev/null) 2>/dev/null || true
	bench/prompt-bench.sh $(BENCH_SCRATCH)/release/localauthd $(BENCH_SCRATCH)/release/localauthctl \
		$(BENCH_SCRATCH)/release/localauthd-prompt 5 $(BENCH_SCRATCH)/gtk-floor

# SwiftPM renames an executable's main, so fuzz/ hands control to LLVMFuzzerRunDriver itself;
# gold cannot link the result, so lld is used.
fuzz-build:
	cd fuzz && swift build -c release --scratch-path $(FUZZ_SCRATCH) \
		-Xswiftc -sanitize=fuzzer,address -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld --product localauthd-fuzz

fuzz: fuzz-build
	mkdir -p $(FUZZ_SCRATCH)/corpus $(FUZZ_SCRATCH)/artifacts
	$(FUZZ_SCRATCH)/release/localauthd-fuzz -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -jobs=$(FUZZ_JOBS) \
		-print_final_stats=1 -artifact_prefix=$(FUZZ_SCRATCH)/artifacts/ $(FUZZ_SCRATCH)/corpus fuzz/corpus

sanitize: sanitize-thread sanitize-address

sanitize-thread:
	swift test --scratch-path $(BENCH_SCRATCH)-tsan --sanitize=thread --filter '$(SANITIZE_FILTER)'

# LeakSanitizer is off: the broker tests end with evaluations deliberately left waiting on scripted
# sensors, whose suspended tasks it would report. Memory errors are still fatal; the daemon's own
# leaks are measured by `make bench` (RSS growth) and HostileResourceTests (connection churn).
# lld links it: gold warns "Cannot export local symbol '__asan_…'" once per ASan helper.
sanitize-address:
	ASAN_OPTIONS=detect_leaks=0:halt_on_error=1 swift test --scratch-path $(BENCH_SCRATCH)-asan --sanitize=address \
		-Xswiftc -use-ld=lld --filter '$(SANITIZE_FILTER)'

# The request-path profile (docs/performance.md, "Where each microsecond goes"): instructions
# (callgrind), allocations (heaptrack) and system calls (strace -c) per canEvaluatePolicy.
PROFILE_DEB_PACKAGES := valgrind heaptrack strace binutils linux-perf
.PHONY: bench-profile profile-deps
profile-deps:
	$(call install_packages,$(PROFILE_DEB_PACKAGES),profile-deps)

bench-profile: profile-deps bench-build
	bench/profile.sh $(BENCH_SCRATCH)/release/localauthd $(BENCH_SCRATCH)/release/localauthd-bench

# The typed-dispatch row (issue 20): BENCH_BASE's daemon, built from `git archive` in the bench
# scratch directory, against this tree's, both driven by this tree's load generator.
BENCH_BASE ?= main
BENCH_DISPATCH_REQUESTS ?= 10000
.PHONY: bench-dispatch
bench-dispatch: profile-deps bench-build
	rm -rf $(BENCH_SCRATCH)/base-source && mkdir -p $(BENCH_SCRATCH)/base-source
	git archive $(BENCH_BASE) | tar -x -C $(BENCH_SCRATCH)/base-source
	cd $(BENCH_SCRATCH)/base-source && swift build -c release --scratch-path $(BENCH_SCRATCH)/base --product localauthd
	bench/dispatch-compare.sh $(BENCH_SCRATCH)/base/release/localauthd $(BENCH_SCRATCH)/release/localauthd \
		$(BENCH_SCRATCH)/release/localauthd-bench $(BENCH_BASE) $(BENCH_DISPATCH_REQUESTS)
