package proxy

import (
	"errors"
	"io"
	"os"
	"syscall"

	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// The log is read by whoever runs the proxy, not by its programmer: each
// line says what happened and, where something can be done, what.

// Reasons a connection ends that the log explains; each wraps the error
// that says the details.
var (
	errTooLargeToDecode = errors.New("longer than Config.MaxFrameSize")
	errNotReadable      = errors.New("the generated package does not read it")
	errFilterRefused    = errors.New("a filter refused it")
	errNoUpstream       = errors.New("no upstream broker answered")
	errUnknownNode      = errors.New("no address learned for the node")
)

// advice is what the operator can do about the error a connection ended
// with, or "" when there is nothing to say beyond the error.
func advice(err error) string {
	var size *frames.FrameSizeError
	var decode *runtime.Error
	switch {
	case errors.As(err, &size):
		return "a peer sent a frame larger than Config.MaxFrameSize: raise it if the peer is legitimate (Kafka's socket.request.max.bytes is 100 MiB by default)"
	case errors.Is(err, errTooLargeToDecode):
		return "raise Config.MaxFrameSize above the largest response the filters must see"
	case errors.Is(err, errNotReadable):
		return "the client sent an api or version the proxy does not advertise: regenerate the package from specs as new as the client, with the apis the filters want"
	case errors.Is(err, errFilterRefused):
		return "the connection was closed as the filter asked; its reason is above"
	case errors.Is(err, errNoUpstream):
		return "check that the brokers of Config.Upstream run and that the proxy reaches them"
	case errors.Is(err, errUnknownNode):
		return "a client dialled a broker's port before the proxy learned that broker (after a proxy restart, say); clients recover by asking Metadata again through the bootstrap port"
	case errors.Is(err, os.ErrDeadlineExceeded):
		return "a peer sent or read nothing for longer than Config.Timeouts allow: raise them if the peer is only slow"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return "a peer closed the connection in the middle of a frame (a client or broker restarting, or the network): nothing to do unless it is frequent"
	case errors.As(err, &decode):
		return "a frame the filters need did not decode with the generated package: save the bytes (kafkagen dump reads them) and report it"
	}
	return ""
}

// logEnd logs how a connection ended, with advice when there is some.
func (p *Proxy) logEnd(what string, err error) {
	if a := advice(err); a != "" {
		p.logf("proxy: %s ended: %v; %s", what, err, a)
		return
	}
	p.logf("proxy: %s ended: %v", what, err)
}

// refusal is a filter's error: it reads as the filter's and matches
// errFilterRefused too.
type refusal struct{ error }

func (r refusal) Unwrap() error      { return r.error }
func (refusal) Is(target error) bool { return target == errFilterRefused }
