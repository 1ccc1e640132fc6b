// Package conformance holds the corpus tests (build tag "corpus"): they run
// against Go packages generated from Apache Kafka's whole spec corpus into
// conformance/gen by `make corpus`, and check kafkagen's codecs against the
// known-answer vectors written by Kafka's Java implementation.
package conformance
