#!/bin/sh
# Generates the client protocol package kafkamsg/ (git-ignored) from Kafka's
# spec files, with Kafka's JSON form (-json) for the request log, exactly as a
# user of kafkagen would: the union of the
# late-2024 trunk corpus (every version Kafka ever shipped, up to 4.0) and
# Kafka 4.2.0-rc1's folder (Produce 13 and Fetch 18 with topic ids and the
# rest 4.1 and 4.2 added), one type per message (kafkagen -in twice).
# KAFKA_SPEC_DIR points at a Kafka spec tree (the folder holding clients/,
# metadata/...), KAFKA_SPEC_RELEASES_DIR at the release folders; by default
# the project's shared copies beside the repository.
set -eu
cd "$(dirname "$0")"
spec="${KAFKA_SPEC_DIR:-../../../shared/kafka-spec}"
releases="${KAFKA_SPEC_RELEASES_DIR:-../../../shared/kafka-spec-releases}"
in="$spec/clients/src/main/resources/common/message"
newest="$releases/4.2.0-rc1/clients/src/main/resources/common/message"
for d in "$in" "$newest"; do
	if [ ! -d "$d" ]; then
		echo "generate.sh: no Kafka spec folder at $d (set KAFKA_SPEC_DIR and KAFKA_SPEC_RELEASES_DIR)" >&2
		exit 1
	fi
done
exec go run github.com/kafkagen/kafkagen/cmd/kafkagen -in "$in" -in "$newest" -out kafkamsg -package kafkamsg -json
