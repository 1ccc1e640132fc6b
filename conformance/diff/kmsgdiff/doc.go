// Package kmsgdiff is a differential test of the codecs generated from
// Apache Kafka's spec corpus (conformance/gen/clients) against franz-go's
// hand-maintained kmsg package, v1.15.1; with build tag k411, also of the
// packages generated from Kafka 4.1.1's client and coordinator folders
// (conformance/gen/k411*), its exclusions tied to Java 4.1.1's verdicts.
//
// It lives in the conformance/diff module, with the other differential
// tests, so that kmsg never enters the main module's go.mod. The generated
// packages it tests are git-ignored: `make conformance` at the repository
// root generates them first, then runs it.
package kmsgdiff
