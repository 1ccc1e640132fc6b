package main

// The client protocol (package kafkamsg, git-ignored) is generated from the
// spec files of a Kafka source tree: set KAFKA_SPEC_DIR to it (make does,
// to the project's shared copy), and KAFKA_SPEC_RELEASES_DIR to the
// release folders: the package is the union of the corpus and Kafka
// 4.2.0-rc1 (every version up to Produce 13 and Fetch 18).
//go:generate go run github.com/kafkagen/kafkagen/cmd/kafkagen -in $KAFKA_SPEC_DIR/clients/src/main/resources/common/message -in $KAFKA_SPEC_RELEASES_DIR/4.2.0-rc1/clients/src/main/resources/common/message -out kafkamsg -package kafkamsg
