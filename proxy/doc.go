// Package proxy is a protocol-aware Kafka proxy, generic over the messages
// of any kafkagen-generated package (runtime's interfaces), on top of wire.
//
// Each client connection gets one connection to a broker: the bootstrap
// port goes to the upstream brokers in turn and, with address rewriting,
// port PORT+1+N to the broker with node id N. Two goroutines serve it, one
// per direction. A frame that no filter wants is relayed as bytes: the proxy
// reads its size and the few bytes that pair it with its request or
// response (frames.Pairing, package wire/frames), gathers short frames in a buffer written in one
// go, and splices the long rest of a frame from socket to socket, so that a
// large record batch never enters user space. A frame a filter wants is read
// whole, decoded (aliased) with the generated package, shown to the filters,
// and relayed as it came unless a filter changed it.
//
// Filters see messages decoded in place, aliased: their strings and byte
// slices point into the proxy's buffers, which the next frame reuses once the
// filters return. What a filter keeps from a request until its response (or
// any longer) must be a copy (strings.Clone, or a generated message's or
// struct's Clone for all of it): see Exchange.Request and the example, whose
// test shows the wrong answers pipelined requests get otherwise.
//
// Filters declare the api keys they want (Filter.Wants), see typed requests
// and responses (RequestFilter, ResponseFilter), may change them, answer a
// request themselves (the answer is queued behind the responses of the
// requests sent before it) or close the connection. Built in:
//
//   - address rewriting (Config.RewriteAddresses) through the generated
//     VisitEndpoints;
//   - ApiVersions answers narrowed to what the generated package and the
//     filters read (always on), and KIP-511's answer to an ApiVersions
//     request above that;
//   - AllowList, Tenant (topic-prefix multi-tenancy through the generated
//     VisitEntities) and Log (Kafka's request log in JSON).
//
// Config.Bridge (package proxy/bridge) sits between the filters and the
// broker: it asks each broker connection's versions first, and translates a
// request at a version the broker does not serve into one it does, and the
// response back (see Bridge for why it is not a filter).
// In subpackages: acl (Kafka's ACLs, each api checked as the broker checks
// it) and quota (bytes and request time per principal, throttled as Kafka
// throttles: Exchange.Throttle holds the reading of a connection). An
// Observer (Config.Observer) sees every exchange, decoded or not, for
// metrics.
//
// Memory per connection is bounded: two 64 KiB buffers, a frame buffer for
// decoded frames up to Config.MaxFrameSize (released after a frame over
// 1 MiB), and at most Config.MaxInFlight requests waiting, past which the
// proxy stops reading the client. A peer that stops reading or sending is
// cut off by the write and read timeouts.
package proxy
