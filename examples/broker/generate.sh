#!/bin/sh
# Generates the client protocol package kafkamsg/ and releases_gen.go
# (both git-ignored) from Kafka's spec files, exactly as a user of kafkagen would. KAFKA_SPEC_DIR points at a Kafka
# spec tree (the folder holding clients/, metadata/...); by default the
# project's shared copy, ../../../shared/kafka-spec relative to this folder.
set -eu
cd "$(dirname "$0")"
spec="${KAFKA_SPEC_DIR:-../../../shared/kafka-spec}"
in="$spec/clients/src/main/resources/common/message"
if [ ! -d "$in" ]; then
	echo "generate.sh: no Kafka spec folder at $in (set KAFKA_SPEC_DIR)" >&2
	exit 1
fi
go run github.com/kafkagen/kafkagen/cmd/kafkagen -in "$in" -out kafkamsg -package kafkamsg
# The versions Kafka releases serve (-kafka-release), read from the release
# spec folders (KAFKA_SPEC_RELEASES_DIR, by default the shared copy); a
# missing folder leaves that release out of the table.
releases="${KAFKA_SPEC_RELEASES_DIR:-../../../shared/kafka-spec-releases}"
exec go run ./internal/cmd/releaseversions -releases "$releases" -out releases_gen.go 4.0.0 4.1.1
