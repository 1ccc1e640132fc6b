// Package wire connects to Kafka brokers and serves Kafka clients with the
// messages kafkagen generates: Dial and Conn for client code, Server and
// Handler for servers. It works with any generated package through
// runtime's interfaces; besides the standard library and runtime it imports
// the module's own generated package (ApiVersions and SASL messages, for
// connection setup whatever package the caller generated) and
// github.com/xdg-go/scram.
//
// A client talks to a broker through a Conn, with the messages of the
// package it generated (here kafkamsg):
//
//	mech, err := wire.ScramSHA512Auth("alice", password)
//	...
//	conn, err := wire.Dial(ctx, "broker:9093", wire.ConnConfig{
//		ClientID: "my-app",
//		TLS:      &tls.Config{}, // verified against the system roots
//		SASL:     mech,
//	})
//	...
//	defer conn.Close()
//	req := kafkamsg.NewMetadataRequest()
//	var resp kafkamsg.MetadataResponse
//	err = conn.Do(ctx, req, &resp) // at the highest version both sides support
//
// Its neighbours speak to other readers: package wire/frames holds the
// frame, header and pairing plumbing of proxies and sniffers (and what
// Client and Server are built on), package wire/kerrors Kafka's error codes
// (kerrors.ErrorCode turns a response's code into an error for errors.Is).
//
// What it holds:
//
//   - Client connections: Dial (or NewConn on a connection of the
//     caller's) opens a Conn: TCP within a context, TLS when
//     ConnConfig.TLS is set (the server name taken from the address, client
//     certificates through the config), ApiVersions at v4 with the KIP-511
//     retry, then SASL when ConnConfig.SASL is set: PlainAuth,
//     ScramSHA256Auth, ScramSHA512Auth or OAuthBearerAuth (a token function
//     the caller supplies), over SaslHandshake v1 and SaslAuthenticate; a
//     refusal is a *SASLError with Kafka's code (UNSUPPORTED_SASL_MECHANISM,
//     SASL_AUTHENTICATION_FAILED...) and the broker's message. Conn.Do and
//     Send pick each call's version, the highest the broker and the
//     request's own package support (Version, Range; DoAt for a version of
//     the caller's choosing). A broker that gives the SASL session a
//     lifetime gets a new authentication on the same connection at 85-95%
//     of it (KIP-368), new calls held back meanwhile, calls in flight left
//     to finish. A context without a deadline bounds the whole setup by
//     ConnConfig.RequestTimeout (30 s by default), so a peer that accepts
//     and never speaks TLS or Kafka cannot hold Dial for ever.
//   - Under it, Client assigns correlation ids, pipelines requests from
//     many goroutines on one connection (one writer goroutine takes them,
//     several per write when they queue up) and matches each response to
//     its request. A call waits for its context only: queued behind a slow
//     write it returns at its deadline having sent nothing, and a response
//     whose caller gave up is discarded as it arrives, even in the middle
//     of it. Only a write the peer does not take within the request
//     timeout (30 s by default, also the bound of a call without a
//     deadline) breaks the connection, since part of a frame may have
//     left. An ApiVersions answer that does not read at the version sent
//     is read at v0 (KIP-511).
//   - Server side: Server serves the connections of any generated package
//     for a Handler, which is given each decoded request of a connection in
//     arrival order with the Peer that sent it (address, TLS state, SASL
//     principal) and returns the response, nothing (acks 0) or an error
//     that closes the connection. It holds under load and attack with
//     Kafka-named Limits: connections per listener and per client address,
//     a request read timeout (slowloris), idle reaping, a write timeout
//     (peers that do not read), and the bytes of requests being read and
//     responses being written bounded in total, a connection waiting for
//     room before reading a large body. Its accept loop backs off on
//     EMFILE as net/http's does; idle connections give back their buffers.
//     It serves TLS and SASL (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, KIP-368
//     re-authentication) with credentials the application looks up, and
//     refuses requests before authentication as Kafka does. Shutdown ends
//     it gracefully. Underneath, RequestDecoder and ServerConn decode a
//     request frame into its header and the generated request type of its
//     api key, and write responses behind the right header. Requests that
//     cannot be served get Kafka's answer: an ApiVersions request above the
//     supported range gets a v0 ApiVersionsResponse with
//     UNSUPPORTED_VERSION and the supported ApiVersions range
//     (frames.AppendAPIVersionsUnsupported); anything else is an
//     *UnsupportedRequestError after which Kafka closes the connection.
//   - Version negotiation: Negotiate intersects a broker's ApiVersions answer
//     (BrokerVersions reads one of any generated package) with a package's
//     Min/MaxVersion and picks the highest common version;
//     Conn.APIVersions is the broker's answer as a Versions table.
package wire
