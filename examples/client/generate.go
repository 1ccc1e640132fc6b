package main

// The client protocol (package kafkamsg, git-ignored) is generated from the
// spec files of a Kafka source tree: set KAFKA_SPEC_DIR to it (make does,
// to the project's shared copy).
//go:generate go run github.com/kafkagen/kafkagen/cmd/kafkagen -in $KAFKA_SPEC_DIR/clients/src/main/resources/common/message -out kafkamsg -package kafkamsg
