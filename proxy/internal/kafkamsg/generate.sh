#!/bin/sh
# Generates this package from Kafka's spec files: Produce and ApiVersions.
# KAFKA_SPEC_DIR points at a Kafka spec tree; by default the project's
# shared copy, ../../../../shared/kafka-spec relative to this folder.
set -eu
cd "$(dirname "$0")"
spec="${KAFKA_SPEC_DIR:-../../../../shared/kafka-spec}"
exec go run github.com/kafkagen/kafkagen/cmd/kafkagen -in "$spec/clients/src/main/resources/common/message" -out ../kafkamsg -package kafkamsg -messages Produce,ApiVersions
