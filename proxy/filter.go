package proxy

import (
	"net"
	"time"

	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// Filter is something that sees the requests or responses of some apis. It
// says which ones it needs decoded; every other frame is relayed as bytes.
type Filter interface {
	// Wants reports whether the filter needs the requests and the responses
	// of apiKey at version decoded (Kroxylicious's decode predicate). It is
	// asked for every request, so it must be cheap. A version the generated
	// package cannot read is never decoded: the proxy advertises only the
	// versions it reads, and closes a connection that sends another one to
	// a filter that wants it.
	Wants(apiKey, version int16) (requests, responses bool)
}

// RequestFilter is a Filter that sees requests before they are forwarded.
type RequestFilter interface {
	Filter
	// Request sees a decoded request. It may change x.Request in place
	// (and call x.Edited, so that it is encoded again), answer it with
	// x.Answer instead of forwarding it, or return an error, which closes
	// the connection (use a *kerrors.Error to give Kafka's name for it).
	Request(x *Exchange) error
}

// ResponseFilter is a Filter that sees responses before they are relayed.
type ResponseFilter interface {
	Filter
	// Response sees a decoded response: x.Response, read at
	// x.ResponseVersion. It may change it in place (and call x.Edited) or
	// return an error, which closes the connection. x.Request is nil here:
	// keep copies of what is needed of it with x.SetState (see
	// Exchange.Request: its memory has been reused by then).
	Response(x *Exchange) error
}

// VersionLimiter is a Filter that narrows the versions the proxy advertises
// in its ApiVersions answers.
type VersionLimiter interface {
	// LimitVersions returns the versions of apiKey to advertise, given the
	// range min to max that the broker and the generated package share;
	// ok false removes the api.
	LimitVersions(apiKey, min, max int16) (lo, hi int16, ok bool)
}

// ConnInfo describes a client connection.
type ConnInfo struct {
	ID       uint64 // numbered from 1 in the order of accept
	Client   net.Addr
	Upstream string // the broker's address
	NodeID   int32  // the node of the port the client connected to; -1 for the bootstrap port
	// Principal is the user the client authenticated as (Config.SASL),
	// set before any filter sees a request; empty without SASL.
	Principal string
	// Mechanism is the SASL mechanism it authenticated with (for
	// Config.OnAdmit of a failed authentication: the one it tried).
	Mechanism string

	throttle *throttle // set by the proxy; see Exchange.Throttle
}

// Exchange is a request and, later, its response, as filters see them.
type Exchange struct {
	Conn *ConnInfo
	// Header is the request's header: api key, version and correlation
	// id always; the client id when the request was decoded; its tags
	// only while request filters run.
	Header frames.RequestHeader
	// Request is the decoded request while request filters run; nil when
	// no filter wanted it. It is decoded aliased: its strings and byte
	// slices point into the frame, and the message and the frame are
	// reused by the next request once the filters return. A filter that
	// keeps any of it for later (with SetState, in a map...) keeps a copy:
	// strings.Clone, bytes.Clone, or the Clone method every generated
	// message and struct has (a deep copy: x.SetState(req.Clone())). Under
	// pipelining, a kept string that was not copied names what a later
	// request wrote there.
	Request runtime.APIMessage
	// Response is the decoded response while response filters run, read
	// at ResponseVersion (0 for KIP-511's ApiVersions answer); reused, as
	// Request is, once they return.
	Response        runtime.APIMessage
	ResponseVersion int16
	// Started is when the request arrived.
	Started time.Time
	// Unanswered: Kafka sends no response to the request (Produce with
	// acks 0), so response filters will not be called.
	Unanswered bool
	// RequestBytes and ResponseBytes are the sizes of the frames as read
	// (size prefix included), for quotas and metrics; 0 until known.
	RequestBytes, ResponseBytes int

	edited bool
	answer runtime.APIMessage
	states []any // per filter
	filter int   // the filter being called
}

// Edited records that the filter changed the message in place: it is
// encoded again instead of relayed as it came.
func (x *Exchange) Edited() { x.edited = true }

// Answer answers the request with resp instead of forwarding it: resp is
// encoded at the request's version, and the filters before this one see it
// as the response.
func (x *Exchange) Answer(resp runtime.APIMessage) { x.answer = resp }

// Answered returns the answer a filter gave with Answer, or nil (for
// filters that look at what an earlier one decided, and for their tests).
func (x *Exchange) Answered() runtime.APIMessage { return x.answer }

// SetState keeps v for the calling filter until the response. v must hold
// copies, not the request's strings or slices (strings.Clone, or the
// generated Clone of a message or struct): see Exchange.Request.
func (x *Exchange) SetState(v any) {
	for len(x.states) <= x.filter {
		x.states = append(x.states, nil)
	}
	x.states[x.filter] = v
}

// State returns what the calling filter kept with SetState, or nil.
func (x *Exchange) State() any {
	if x.filter < len(x.states) {
		return x.states[x.filter]
	}
	return nil
}
