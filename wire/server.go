package wire

import (
	"errors"
	"fmt"
	"io"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// ServerConfig configures a ServerConn.
type ServerConfig struct {
	// NewRequest makes the request message of an api key, nil if unknown:
	// a generated package's NewRequest. Required.
	NewRequest func(apiKey int16) runtime.APIMessage
	// Alias decodes bodies with DecodeAliased: strings and byte slices point
	// into the connection's frame buffer and are valid until the next
	// ReadRequest. Without it they are copied.
	Alias bool
	// Supported, when not empty, narrows the keys and versions served to
	// what the server implements (see NewRequestDecoder).
	Supported []VersionRange
	// MaxFrameSize is the largest request accepted; 0 means
	// frames.DefaultMaxFrameSize.
	MaxFrameSize int
}

// ServerConn is the server side of one connection: it reads requests in
// order and writes their responses. It is not safe for concurrent use; Kafka
// answers the requests of a connection in the order they arrived, and so
// should a server built on ServerConn.
type ServerConn struct {
	w       io.Writer
	frames  *frames.FrameReader
	decoder *RequestDecoder
	req     Request
	out     []byte
}

// NewServerConn serves requests arriving on rw (usually a net.Conn).
func NewServerConn(rw io.ReadWriter, cfg ServerConfig) *ServerConn {
	return &ServerConn{
		w:       rw,
		frames:  frames.NewFrameReader(rw, cfg.MaxFrameSize),
		decoder: NewRequestDecoder(cfg.NewRequest, cfg.Alias, cfg.Supported),
	}
}

// ReadRequest reads and decodes the next request. The result and its body
// are reused by the next call. At the end of the stream it returns io.EOF.
// A request the server cannot serve gives an *UnsupportedRequestError: pass
// it to Answer, which answers it as Kafka does or tells the server to close
// the connection.
func (c *ServerConn) ReadRequest() (*Request, error) {
	frame, err := c.frames.Next()
	if err != nil {
		return nil, err
	}
	if err := c.decoder.Decode(frame, &c.req); err != nil {
		return nil, err
	}
	return &c.req, nil
}

// Answer gives the answer Kafka gives to a request that ReadRequest refused.
// An ApiVersions request above the supported range is answered with a v0
// ApiVersionsResponse carrying UNSUPPORTED_VERSION and the supported
// ApiVersions range; Answer then returns nil and the connection stays
// usable. For every other error Answer writes nothing and returns err: Kafka
// closes the connection, and so should the server.
func (c *ServerConn) Answer(err error) error {
	var u *UnsupportedRequestError
	if !errors.As(err, &u) || !u.Answerable() {
		return err
	}
	r, _ := c.decoder.Range(generated.APIKeyAPIVersions)
	c.out = frames.AppendAPIVersionsUnsupported(c.out[:0], u.Header.CorrelationID, r.MinVersion, r.MaxVersion)
	if _, werr := c.w.Write(c.out); werr != nil {
		return fmt.Errorf("kafka server: answering ApiVersions v%d: %w", u.Header.APIVersion, werr)
	}
	return nil
}

// Supported lists the versions served for each key in keys that the
// server's package knows, as an ApiVersions answer lists them.
func (c *ServerConn) Supported(keys []int16) []VersionRange {
	var out []VersionRange
	for _, k := range keys {
		if r, ok := c.decoder.Range(k); ok {
			out = append(out, r)
		}
	}
	return out
}

// WriteResponse writes resp as the answer to req: resp encoded at the
// request's version, behind a response header of the version resp's api
// uses there, holding the request's correlation id.
func (c *ServerConn) WriteResponse(req *Request, resp runtime.APIMessage) error {
	if resp.APIKey() != req.Header.APIKey {
		return fmt.Errorf("kafka server: answering api key %d with %s (key %d)", req.Header.APIKey, resp.SpecName(), resp.APIKey())
	}
	out, err := frames.AppendResponse(c.out[:0], req.Header.CorrelationID, resp, req.Header.APIVersion)
	if err != nil {
		return err
	}
	c.out = out
	if _, err := c.w.Write(out); err != nil {
		return fmt.Errorf("kafka server: writing %s v%d (correlation id %d): %w", resp.SpecName(), req.Header.APIVersion, req.Header.CorrelationID, err)
	}
	return nil
}
