// Package frames is the plumbing under package wire, for code that reads or
// relays Kafka's byte streams itself: proxies, sniffers, dump tools, tests
// that write raw requests. Clients and servers use package wire instead.
//
// What it holds, from the bytes up:
//
//   - Frames: FrameReader reads 4-byte size-prefixed frames into one reused
//     buffer, refusing a negative size or one above a limit (by default
//     Kafka's socket.request.max.bytes, 100 MiB) before allocating anything.
//     The buffer grows with the bytes that arrive, never from the size
//     prefix alone, and one grown past the retain size is given back at the
//     next frame; Skip discards a frame nobody waits for without buffering
//     it. BeginFrame/EndFrame and AppendFrame write frames.
//   - Headers: RequestHeader (v0, v1, v2) and ResponseHeader (v0, v1), with
//     the client id and the header tag section kept so that a header
//     re-encodes to the bytes it came from. The version each message
//     version travels with is its HeaderVersion method.
//   - Watching a connection one did not open (proxies, sniffers): Pairing
//     pairs each response with its request by the correlation id its first
//     4 bytes hold, reading no more of a request than it must (8 bytes, or a
//     Produce's header and acks: acks 0 is never answered); requests newer
//     than the package pass by their header alone, and a bounded number wait
//     at once. ResponseDecoder decodes a paired response, reading an
//     ApiVersions answer that does not fit the version asked at v0.
//   - Frame building: AppendRequest and AppendResponse write a whole frame
//     (size, header, body); AppendAPIVersionsUnsupported writes Kafka's
//     answer to an ApiVersions request above the supported range (KIP-511).
package frames
