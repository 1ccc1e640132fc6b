// Package readerr holds what wire's client and server and wire/frames' readers
// and decoders say alike: a stream ending inside a frame, a body's decode
// error at its frame offset, bytes left after a body.
package readerr

import (
	"errors"
	"fmt"
	"io"

	"github.com/kafkagen/kafkagen/runtime"
)

// ErrTrailingBytes is a frame holding bytes after the message it carries;
// wire and wire/frames export it under the same name.
var ErrTrailingBytes = errors.New("bytes left after the message")

// WithOffset moves the byte offset of a body's decode error from the body's
// start to the frame's.
func WithOffset(err error, base int) error {
	var e *runtime.Error
	if errors.As(err, &e) && e.Offset >= 0 {
		e.Offset += base
	}
	return err
}

// Check is the error of a body m decoded at version from frame[headerLen:],
// used bytes long: the decode error err at its frame offset, a
// runtime.Error wrapping ErrTrailingBytes when bytes are left, or nil.
func Check(err error, m runtime.APIMessage, version int16, frameLen, headerLen, used int) error {
	if err != nil {
		return WithOffset(err, headerLen)
	}
	if left := frameLen - headerLen - used; left != 0 {
		return &runtime.Error{Op: "decode", Message: m.SpecName(), Version: version, Offset: headerLen + used, Err: ErrTrailingBytes,
			Detail: fmt.Sprintf("%d bytes after the %d-byte body", left, used)}
	}
	return nil
}

// ShortFrame is the error of a stream that ended, or failed, inside a
// size-byte frame of which got bytes arrived.
func ShortFrame(size, got int, err error) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("kafka frame: reading a %d-byte frame: got %d bytes: %w", size, got, err)
}
