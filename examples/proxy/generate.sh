#!/bin/sh
# Generates the client protocol package kafkamsg/ (git-ignored) from Kafka's
# spec files, with Kafka's JSON form (-json) for the request log, exactly as
# a user of kafkagen would. KAFKA_SPEC_DIR points at a Kafka spec tree (the
# folder holding clients/, metadata/...); by default the project's shared
# copy, ../../../shared/kafka-spec relative to this folder.
set -eu
cd "$(dirname "$0")"
spec="${KAFKA_SPEC_DIR:-../../../shared/kafka-spec}"
in="$spec/clients/src/main/resources/common/message"
if [ ! -d "$in" ]; then
	echo "generate.sh: no Kafka spec folder at $in (set KAFKA_SPEC_DIR)" >&2
	exit 1
fi
exec go run github.com/kafkagen/kafkagen/cmd/kafkagen -in "$in" -out kafkamsg -package kafkamsg -json
