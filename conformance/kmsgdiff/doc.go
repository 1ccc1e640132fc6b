// Package kmsgdiff is a differential test of the codecs generated from
// Apache Kafka's spec corpus (conformance/gen/clients) against franz-go's
// hand-maintained kmsg package, v1.15.1.
//
// It is its own module so that the main module keeps only its three
// dependencies. The generated packages it tests are git-ignored: run
// `make kmsgdiff` from the repository root, which generates them first.
package kmsgdiff
