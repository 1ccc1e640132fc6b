# kafkagen: `make test` is what CI runs (.ci/run).
GO ?= go
# Every module is built on its own go.mod, as in a clean clone of one module:
# go.work (for editors and cross-module work) is off here and in CI.
export GOWORK := off
KAFKA_SPEC_DIR ?= $(abspath ../shared/kafka-spec)
export KAFKA_SPEC_DIR
KAFKA_SPEC_RELEASES_DIR ?= $(abspath ../shared/kafka-spec-releases)
export KAFKA_SPEC_RELEASES_DIR

.PHONY: all generate check test unit corpus conformance recordsdiff compat releases downstream broker-test broker-load reliability client-example proxy-test proxy-bench interop fuzz bench clean

all: generate test

# Regenerate generated/ from schemas/.
generate:
	$(GO) run ./cmd/kafkagen

# Fail when generated/ is stale.
check:
	$(GO) run ./cmd/kafkagen -check

# Everything: unit tests, generated/ freshness, and the conformance suite
# over the upstream corpus.
test: unit conformance recordsdiff compat releases downstream broker-test client-example proxy-test

unit:
	$(GO) vet ./...
	$(GO) test ./...
	$(GO) test -count=1 -tags purego ./records/
	$(GO) test -count=1 -race ./records/ ./wire/... ./proxy/ ./runtime/codec/
	cd conformance/diff && bash -o pipefail -c '$(GO) test -count=1 -v ./wirediff/ | grep -aE "^(--- FAIL|FAIL|ok|PASS|panic|wirediff:)|Error( Trace)?:"'

# The conformance suite: generate the whole upstream corpus (one package per
# folder) into the git-ignored conformance/gen, vet it, run the corpus tests
# (Java vectors, random round trips, transcoding, Java's errors, length
# bombs) and the kmsg differential (conformance/diff/kmsgdiff, in the module
# of the differential tests), then print one summary line. With Kafka 4.1.1's
# spec folders (KAFKA_SPEC_RELEASES_DIR), gencorpus also generates their
# packages (conformance/gen/k411*) and the tests tagged k411 check them:
# Java 4.1.1's vectors and the 4.1.1 kmsg differential.
LOGS := $(abspath conformance/gen/logs)
conformance:
	@if [ -d "$(KAFKA_SPEC_DIR)" ]; then \
		$(GO) run ./internal/cmd/gencorpus && mkdir -p $(LOGS) && \
		k411=$$([ -d conformance/gen/k411clients ] && echo k411 || true) && \
		$(GO) vet -tags corpus,$$k411 ./conformance/... && \
		bash -o pipefail -c '$(GO) test -count=1 -v -tags corpus,'$$k411' ./conformance/ | tee $(LOGS)/corpus.log | grep -aE "^(--- FAIL|FAIL|ok|PASS|panic)|Error( Trace)?:"' && \
		(cd conformance/diff && bash -o pipefail -c '$(GO) test -count=1 -v -tags='$$k411' ./kmsgdiff/ | tee $(LOGS)/kmsg.log | grep -aE "^(--- FAIL|FAIL|ok|PASS|panic)|Error( Trace)?:"') && \
		$(GO) run ./internal/cmd/summary $${k411:+-k411} $(LOGS)/corpus.log $(LOGS)/kmsg.log; \
	else \
		echo "SKIP conformance tests: no Kafka spec corpus at $(KAFKA_SPEC_DIR) (set KAFKA_SPEC_DIR)"; \
	fi

corpus: conformance

# Differential test of records/ against franz-go and sarama (conformance/diff):
# random batches of every codec both ways, legacy message sets against sarama.
recordsdiff:
	cd conformance/diff && bash -o pipefail -c '$(GO) test -count=1 -v ./recordsdiff/ | grep -aE "^(recordsdiff:|--- FAIL|FAIL|ok|PASS|panic)|Error( Trace)?:"'

# The spec evolution check end to end on the real corpus: every Kafka 4.0 spec
# is compatible with itself. Then the release chain 3.9.1 -> 4.0.0 -> 4.1.1 ->
# 4.2.0-rc1 (every folder; its findings pinned in testdata/compat/chain.golden,
# go test ./generator/compat/ -update rewrites it): one "compat:" line a step.
compat:
	@if [ -d "$(KAFKA_SPEC_DIR)" ]; then \
		$(GO) run ./cmd/kafkagen compat -old $(KAFKA_SPEC_DIR) -new $(KAFKA_SPEC_DIR); \
	else \
		echo "SKIP compat: no Kafka spec corpus at $(KAFKA_SPEC_DIR)"; \
	fi
	@if [ -d "$(KAFKA_SPEC_RELEASES_DIR)" ]; then \
		bash -o pipefail -c '$(GO) test -count=1 -v -run "^TestReleaseChain$$" ./generator/compat/ | grep -aE "^(--- FAIL|FAIL|ok|panic)|compat: |Error( Trace)?:" | sed -E "s/^ +chain_test\.go:[0-9]+: //"'; \
	else \
		echo "SKIP compat chain: no Kafka release specs at $(KAFKA_SPEC_RELEASES_DIR)"; \
	fi

# The release matrix (cmd/kafkagen's TestReleaseFolders, off in the plain unit
# run): every spec folder of every release in KAFKA_SPEC_RELEASES_DIR (2.2 to
# 4.2) generated in parallel with the rules kafkagen picks (-release for 2.x,
# after checking that the default rules refuse the folder naming it), vetted
# in one go vet, and round-tripped in one test binary. It ends with
# "release-matrix: folders=31 releases=7 generated=31 vetted=31 round-trips=31
# messages=… failures=0". The packages go to _release-build (git-ignored, a
# fixed path so that an unchanged generator finds them in the build cache).
RELEASES_FILTER := ^(--- FAIL|FAIL|ok|panic)|release-matrix|Error( Trace)?:|Messages:
releases:
	@if [ -d "$(KAFKA_SPEC_RELEASES_DIR)" ]; then \
		bash -o pipefail -c 'KAFKAGEN_RELEASE_MATRIX=1 $(GO) test -count=1 -timeout 30m -v -run "^TestReleaseFolders$$" ./cmd/kafkagen/ | grep -aE "$(RELEASES_FILTER)" | sed -E "s/^ +releasematrix_test\.go:[0-9]+: //"'; \
	else \
		echo "SKIP releases: no Kafka release specs at $(KAFKA_SPEC_RELEASES_DIR) (set KAFKA_SPEC_RELEASES_DIR)"; \
	fi

# The downstream example (examples/downstream, a module of its own): go
# generate with the kafkagen tool of this checkout, then its golden round trips.
downstream:
	cd examples/downstream && $(GO) generate ./... && $(GO) vet ./... && $(GO) test -count=1 ./...

# The example broker (examples/broker, a module of its own): the client
# protocol generated with go generate from KAFKA_SPEC_DIR, then its tests over
# 127.0.0.1 with the generated client and wire.
broker-test:
	@if [ -d "$(KAFKA_SPEC_DIR)" ]; then \
		cd examples/broker && $(GO) generate && $(GO) vet ./... && $(GO) test -count=1 ./...; \
	else \
		echo "SKIP broker-test: no Kafka spec corpus at $(KAFKA_SPEC_DIR)"; \
	fi

# The reliability suite (issue 18; docs/benchmarks.md, "Connection layer
# under attack"): every attack on a fresh broker process (RSS from /proc, a
# normal client served during and after), then the wire client's rows. It
# prints one "reliability:" line per row, and the failures.
RELIABILITY_FILTER := ^(--- FAIL|FAIL|ok|PASS|panic)|reliability:|Error( Trace)?:|Messages:
reliability:
	@if [ -d "$(KAFKA_SPEC_DIR)" ]; then \
		cd examples/broker && $(GO) generate && $(GO) vet -tags reliability . && \
		bash -o pipefail -c '$(GO) test -count=1 -timeout 15m -tags reliability -run Reliability -v . | grep -aE "$(RELIABILITY_FILTER)"'; \
	else \
		echo "SKIP reliability: no Kafka spec corpus at $(KAFKA_SPEC_DIR)"; \
	fi
	bash -o pipefail -c '$(GO) test -count=1 -v -run "^(TestClientQueuedCallReturnsAtItsDeadline|TestClientWriteTimeoutBreaksTheConnection|TestClientDiscardsAbandonedResponses)$$" ./wire/ | grep -aE "$(RELIABILITY_FILTER)"'

# The example broker under load (examples/broker/cmd/brokerload; not in
# make test: it takes half a minute and measures): a fresh broker process,
# 200 producer connections x 8 pipelined idempotent Produce requests and 20
# consumers, at acks=1 then acks=-1; every acknowledged record read back once
# in order, one line per phase (docs/benchmarks.md, "Connection layer under
# load"). BROKERLOAD_FLAGS such as -duration 5s or -data-dir tmp.
BROKERLOAD_FLAGS ?=
broker-load:
	@if [ -d "$(KAFKA_SPEC_DIR)" ]; then \
		cd examples/broker && $(GO) generate && $(GO) vet ./cmd/brokerload/... && \
		$(GO) test -count=1 ./cmd/brokerload/... && $(GO) run ./cmd/brokerload $(BROKERLOAD_FLAGS); \
	else \
		echo "SKIP broker-load: no Kafka spec corpus at $(KAFKA_SPEC_DIR)"; \
	fi

# The client example (examples/client, a module of its own): the client
# protocol generated with go generate from KAFKA_SPEC_DIR, then its test,
# which runs the tool against kfake on 127.0.0.1 and checks every line.
client-example:
	@if [ -d "$(KAFKA_SPEC_DIR)" ]; then \
		cd examples/client && $(GO) generate && $(GO) vet . && $(GO) test -count=1 .; \
	else \
		echo "SKIP client-example: no Kafka spec corpus at $(KAFKA_SPEC_DIR)"; \
	fi

# The kafkaproxy command (examples/proxy, a module of its own): the client
# protocol generated with go generate from KAFKA_SPEC_DIR (with -json), then
# its tests: franz-go through the proxy to kfake clusters over 127.0.0.1, and
# its typed knowledge checked against the spec files.
proxy-test:
	@if [ -d "$(KAFKA_SPEC_DIR)" ]; then \
		cd examples/proxy && $(GO) generate && $(GO) vet ./... && $(GO) test -count=1 ./...; \
	else \
		echo "SKIP proxy-test: no Kafka spec corpus at $(KAFKA_SPEC_DIR)"; \
	fi

# kafkaproxy against a plain TCP relay on the same load (docs/benchmarks.md,
# "kafkaproxy against a TCP relay"): PROXYBENCH_FLAGS such as -rounds 5.
# PROXYBENCH_FLAGS=-gateway: kafkaproxy with TLS, SASL, a virtual cluster and
# ACLs against a TLS-terminating relay, and the memory of idle authenticated
# connections ("kafkaproxy as a gateway (issue 28)").
PROXYBENCH_FLAGS ?=
proxy-bench:
	cd examples/proxy && $(GO) generate && $(GO) run ./cmd/proxybench $(PROXYBENCH_FLAGS)

# The interop suite (interop/, a module of its own; see interop/README.md):
# installs kcat, kafka-python and kafkajs (apt-get, npm) and the Go clients,
# tests the clients' scenarios against kfake, then runs six real clients
# against examples/broker, in plaintext and again over TLS and SASL, then
# through examples/proxy (to the example broker, and franz-go to a three-node
# kfake, plainly and with -topic-prefix), seven client runs, a quota held
# while another tenant produces flat out, and 29 attacks (bad OAUTHBEARER
# tokens among them) through kafkaproxy -config as a multi-tenant gateway
# (TLS, SASL, virtual clusters, ACLs, quotas; its line "gateway: clients=7/7
# ... leaks=0 ... mismatches=0 quota: held=… limit=256KiB/s other=…"),
# and kafkagen's own client against kfake. It ends with "interop: clients=6
# secured=6 proxied=14/14 requests=… api-versions=… reencode-diffs=0 proxy-diffs=0".
# INTEROP_FLAGS=-update-captures rewrites testdata/captures.
INTEROP_FLAGS ?=
interop:
	@if [ -d "$(KAFKA_SPEC_DIR)" ]; then \
		bash interop/install.sh && \
		$(GO) run ./internal/cmd/gencorpus && \
		cd interop && $(GO) vet ./... && $(GO) test -count=1 ./... && \
		$(GO) run ./cmd/interop $(INTEROP_FLAGS); \
	else \
		echo "SKIP interop: no Kafka spec corpus at $(KAFKA_SPEC_DIR) (set KAFKA_SPEC_DIR)"; \
	fi

# Native Go fuzzing, FUZZTIME per target (a duration, or an execution count
# such as 100000x, which avoids Go issue 75804): decoding over generated/ and over
# the whole corpus, and loading specs.
FUZZTIME ?= 30s
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME) ./generated/
	$(GO) test -run '^$$' -fuzz '^FuzzSpec$$' -fuzztime $(FUZZTIME) ./generator/schema/
	$(GO) test -run '^$$' -fuzz '^FuzzCompare$$' -fuzztime $(FUZZTIME) ./generator/compat/
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeRequest$$' -fuzztime $(FUZZTIME) ./wire/
	$(GO) test -run '^$$' -fuzz '^FuzzPairing$$' -fuzztime $(FUZZTIME) ./wire/frames/
	$(GO) test -run '^$$' -fuzz '^FuzzClampVersions$$' -fuzztime $(FUZZTIME) ./proxy/
	$(GO) test -run '^$$' -fuzz '^FuzzRead$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 2s ./records/
	@if [ -d "$(KAFKA_SPEC_DIR)" ]; then \
		$(GO) run ./internal/cmd/gencorpus && \
		$(GO) test -tags corpus -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME) ./conformance/ && \
		$(GO) test -tags corpus -run '^$$' -fuzz '^FuzzDynamicDecode$$' -fuzztime $(FUZZTIME) ./conformance/ && \
		$(GO) test -tags corpus -run '^$$' -fuzz '^FuzzDecodeJSON$$' -fuzztime $(FUZZTIME) ./conformance/; \
	fi

# Benchmarks (bench/, a module of its own so that kmsg, sarama and kafka-go
# never enter go.mod): regenerate the corpus, check that every library reads
# the same bytes, run the benchmarks into bench/bench.txt, then print the
# benchstat comparison, the targets and the build metrics (docs/benchmarks.md).
# The BENCHRUNS samples are whole passes over every benchmark, not -count
# (which repeats each benchmark back to back): libraries compared in a ratio
# are then measured in the same stretch of the machine's drift.
BENCHRUNS ?= 10
BENCHTIME ?= 500ms
bench: SHELL := /bin/bash
bench:
	$(GO) run ./internal/cmd/gencorpus
	cd bench && $(GO) test -count 1 ./...
	cd bench && $(GO) test -c -o bench.test .
	set -o pipefail; cd bench && for i in $$(seq $(BENCHRUNS)); do \
		./bench.test -test.run '^$$' -test.bench . -test.benchmem -test.benchtime $(BENCHTIME) -test.timeout 60m || exit 1; \
	done | tee bench.txt
	cd bench && $(GO) tool benchstat -col '/impl@(kafkagen kmsg sarama copy)' bench.txt
	cd bench && $(GO) tool benchstat -filter '.name:/^Recordset/' -col /impl bench.txt
	cd bench && $(GO) run ./cmd/ratios bench.txt
	cd bench && GO=$(GO) ./buildmetrics.sh

clean:
	rm -rf conformance/gen
