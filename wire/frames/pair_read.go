package frames

import (
	"encoding/binary"
	"fmt"

	"github.com/kafkagen/kafkagen/runtime"
)

// prefixReader reads the start of a request frame that may not all be there
// yet: each read either succeeds, or says how long a prefix it needs (need),
// or fails because the frame itself ends too soon.
type prefixReader struct {
	b         []byte // the prefix read so far
	frameSize int
	off       int
	need      int   // > 0: call again with this many bytes
	err       error // the frame is malformed
}

// take returns the next n bytes, or nil when they are not all in the prefix
// (setting need or err).
func (r *prefixReader) take(n int, what string) []byte {
	if r.need > 0 || r.err != nil {
		return nil
	}
	end := r.off + n
	switch {
	case n < 0 || end > r.frameSize:
		r.err = fmt.Errorf("kafka pairing: a %d-byte request frame ends inside its %s (%d bytes at offset %d)", r.frameSize, what, n, r.off)
		return nil
	case end > len(r.b):
		r.need = end
		return nil
	}
	p := r.b[r.off:end]
	r.off = end
	return p
}

// uvarint reads an unsigned varint of at most 5 bytes, as Kafka writes them.
func (r *prefixReader) uvarint(what string) uint32 {
	var v uint32
	for i := range 5 {
		p := r.take(1, what)
		if p == nil {
			return 0
		}
		v |= uint32(p[0]&0x7f) << (7 * i)
		if p[0] < 0x80 {
			return v
		}
	}
	r.err = fmt.Errorf("kafka pairing: the %s at offset %d: %w", what, r.off-5, runtime.ErrMalformedVarint)
	return 0
}

// int16 reads a big-endian int16.
func (r *prefixReader) int16(what string) int16 {
	p := r.take(2, what)
	if p == nil {
		return 0
	}
	return int16(binary.BigEndian.Uint16(p))
}

// ok reports whether every read so far succeeded.
func (r *prefixReader) ok() bool { return r.need == 0 && r.err == nil }

// skipString skips a nullable string: an int16 length (negative: null) or,
// compact, a uvarint of the length plus one (0: null).
func (r *prefixReader) skipString(compact bool, what string) {
	var n int
	if compact {
		n = int(r.uvarint(what+" length")) - 1
	} else {
		n = int(r.int16(what + " length"))
	}
	if n > 0 {
		r.take(n, what)
	}
}

// produceAcks reads the acks of a Produce request from the start of its
// frame: the request header at headerVersion, then (from v3) the
// transactional id, then acks.
func produceAcks(prefix []byte, frameSize int, headerVersion, version int16, flexible bool) (acks int16, need int, err error) {
	r := prefixReader{b: prefix, frameSize: frameSize, off: requestHeaderMinLen}
	if headerVersion >= 1 {
		r.skipString(false, "client id")
	}
	if headerVersion >= 2 {
		// Each tag takes 3 bytes at least, so a count past the frame's end
		// fails on its first missing byte instead of looping.
		for count := r.uvarint("header tag count"); count > 0 && r.ok(); count-- {
			r.uvarint("header tag")
			if n := r.uvarint("header tag size"); r.ok() {
				r.take(int(n), "header tagged field")
			}
		}
	}
	if version >= 3 {
		r.skipString(flexible, "transactional id")
	}
	acks = r.int16("acks")
	return acks, r.need, r.err
}
