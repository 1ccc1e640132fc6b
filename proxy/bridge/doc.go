// Package bridge lets clients older than the broker speak to it: a proxy
// with Config.Bridge set to a *Bridge translates every request at a version
// the broker no longer serves (Kafka 4 removed everything older than Kafka
// 2.1, KIP-896) into the nearest version it serves, and the response back
// into the client's version. docs/protocol.md ("Kafka 4 and old clients")
// has the Kafka facts it relies on; examples/proxy/README.md lists what is
// translated exactly and what approximately.
//
// The bridge is a core feature of proxy (proxy.Bridge), not a Filter:
// filters see and edit messages at the version they travel at, whereas the
// bridge changes that version (and with it the request header, how the
// response is paired and read, and the response's version on the way
// back), widens the ranges ApiVersions advertises, and needs the broker's
// ranges before the first request of a client that may never send
// ApiVersions. The engine asks the broker's versions on each new upstream
// connection and calls the bridge between the filters and the broker, so
// filters see what the client sent and receives.
//
// Generic where the versions mean the same: a request decoded at the
// client's version already holds the spec defaults of the fields that
// version lacks, and encoding it at the broker's version drops the
// ignorable fields the broker's version lacks; the same holds for the
// response on its way back. Knowledge of versions comes from the generated
// package (its NewRequest and NewResponse). Where the semantics differ, an
// adapter, one file per API, named after it, reads and writes the fields by
// their spec names (through reflection, so that any kafkagen-generated
// package works): Produce v0-2 (message sets to one v2 batch), Fetch v0-3
// (v2 batches down to message sets), ListOffsets v0, OffsetCommit v0-1,
// JoinGroup v0, DescribeConfigs v0, and the v0 of the ACL, log-dir and
// delegation-token apis (throttle.go: KIP-219 moved the quota delay from
// the broker to the client). Error codes an old version cannot carry are mapped as
// Kafka mapped them (errors.go).
package bridge
