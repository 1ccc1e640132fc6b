# kafkagen: `make test` is what CI runs (.ci/run).
GO ?= go
KAFKA_SPEC_DIR ?= $(abspath ../shared/kafka-spec)
export KAFKA_SPEC_DIR

.PHONY: all generate check test unit corpus conformance fuzz bench kmsgdiff clean

all: generate test

# Regenerate generated/ from schemas/.
generate:
	$(GO) run ./cmd/kafkagen

# Fail when generated/ is stale.
check:
	$(GO) run ./cmd/kafkagen -check

# Everything: unit tests, generated/ freshness, the upstream corpus.
test: unit corpus

unit:
	$(GO) vet ./...
	$(GO) test ./...

# Generate the whole upstream corpus (one package per folder) into the
# git-ignored conformance/gen, vet it, and run the corpus tests against it.
corpus:
	@if [ -d "$(KAFKA_SPEC_DIR)" ]; then \
		$(GO) run ./internal/cmd/gencorpus && \
		$(GO) vet -tags corpus ./conformance/... && \
		$(GO) test -tags corpus ./conformance/...; \
	else \
		echo "SKIP corpus tests: no Kafka spec corpus at $(KAFKA_SPEC_DIR) (set KAFKA_SPEC_DIR)"; \
	fi

conformance: corpus

# Differential test against franz-go's kmsg v1.15.1 (conformance/kmsgdiff,
# its own module): generates the corpus, then compares both directions for
# every request and response version both support, printing
# "kmsg: pairs=N messages=N excluded-pairs=N mismatches=N".
kmsgdiff:
	@if [ -d "$(KAFKA_SPEC_DIR)" ]; then \
		$(GO) run ./internal/cmd/gencorpus && \
		cd conformance/kmsgdiff && \
		bash -o pipefail -c '$(GO) test -count=1 -v ./... | grep -av "^=== "'; \
	else \
		echo "SKIP kmsgdiff: no Kafka spec corpus at $(KAFKA_SPEC_DIR) (set KAFKA_SPEC_DIR)"; \
	fi

# Native Go fuzzing, FUZZTIME per target: decoding over generated/ and over
# the whole corpus, and loading specs.
FUZZTIME ?= 30s
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME) ./generated/
	$(GO) test -run '^$$' -fuzz '^FuzzSpec$$' -fuzztime $(FUZZTIME) ./generator/schema/
	@if [ -d "$(KAFKA_SPEC_DIR)" ]; then \
		$(GO) run ./internal/cmd/gencorpus && \
		$(GO) test -tags corpus -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME) ./conformance/; \
	fi

clean:
	rm -rf conformance/gen
