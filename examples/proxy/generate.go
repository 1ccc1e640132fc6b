package main

// The client protocol (package kafkamsg) is generated from Kafka's spec
// files and not committed; see generate.sh for KAFKA_SPEC_DIR and its
// default.
//go:generate sh generate.sh
