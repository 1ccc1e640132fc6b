// Package kafkamsg is the generated package of the proxy's example and of
// its pipelining test: Kafka's Produce and ApiVersions, as a user of
// kafkagen -messages would generate them. Regenerate with go generate
// (KAFKA_SPEC_DIR defaults to the project's shared copy); a test checks it
// is fresh.
package kafkamsg

//go:generate sh generate.sh
