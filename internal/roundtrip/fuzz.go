package roundtrip

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/kafkagen/kafkagen/runtime"
)

// Sentinels every decode error must wrap one of.
var decodeSentinels = []error{
	runtime.ErrShortBuffer, runtime.ErrInvalidLength, runtime.ErrMalformedVarint,
	runtime.ErrNull, runtime.ErrInvalidTag, runtime.ErrUnsupportedVersion,
}

// FuzzInput builds the input FuzzOne reads: the spec index, the version and
// the message body.
func FuzzInput(index int, version int16, body []byte) []byte {
	b := binary.BigEndian.AppendUint16(nil, uint16(index))
	b = binary.BigEndian.AppendUint16(b, uint16(version))
	return append(b, body...)
}

// FuzzOne decodes data as FuzzInput laid it out: a big-endian uint16 picks
// one of names, the next uint16 a version (modulo the spec's range) and the
// rest is decoded with Decode and DecodeAliased. It returns a description of
// any broken property: the two decoders disagree, an error that names no
// message or wraps no sentinel, or a decoded message whose encoding does not
// decode back to itself.
func FuzzOne(names []string, newByName func(string) runtime.Message, data []byte) error {
	if len(data) < 4 || len(names) == 0 {
		return nil
	}
	name := names[int(binary.BigEndian.Uint16(data))%len(names)]
	msg := newByName(name)
	vs, ok := msg.(runtime.Versioned)
	if !ok {
		return fmt.Errorf("%s does not implement runtime.Versioned", name)
	}
	span := int(vs.MaxVersion()-vs.MinVersion()) + 1
	version := vs.MinVersion() + int16(int(binary.BigEndian.Uint16(data[2:]))%span)
	body := data[4:]

	n, err := msg.Decode(body, version)
	aliased := newByName(name)
	na, erra := aliased.DecodeAliased(body, version)
	if (err == nil) != (erra == nil) || n != na {
		return fmt.Errorf("%s v%d: Decode (%d, %v) and DecodeAliased (%d, %v) disagree", name, version, n, err, na, erra)
	}
	if err != nil {
		return checkDecodeError(err, vs.SpecName(), len(body))
	}
	if n > len(body) {
		return fmt.Errorf("%s v%d: consumed %d of %d bytes", name, version, n, len(body))
	}
	if !Equal(msg, aliased) {
		return fmt.Errorf("%s v%d: Decode and DecodeAliased decode different values", name, version)
	}
	enc, err := msg.AppendTo(nil, version)
	if err != nil {
		// Java rejects some inputs it reads on writing too (unknown tags out
		// of order); the error must still be well-formed.
		var e *runtime.Error
		if !errors.As(err, &e) || e.Message != vs.SpecName() || !errors.Is(err, runtime.ErrTagOrder) {
			return fmt.Errorf("%s v%d: re-encoding a decoded message: %v", name, version, err)
		}
		return nil
	}
	if msg.Size(version) != len(enc) {
		return fmt.Errorf("%s v%d: Size %d, encoding %d bytes", name, version, msg.Size(version), len(enc))
	}
	again := newByName(name)
	if n, err := again.Decode(enc, version); err != nil || n != len(enc) {
		return fmt.Errorf("%s v%d: our own encoding does not decode: %d of %d bytes, %v", name, version, n, len(enc), err)
	}
	if enc2, err := again.AppendTo(nil, version); err != nil || !bytes.Equal(enc, enc2) {
		return fmt.Errorf("%s v%d: encoding is not stable: %v\n%x\n%x", name, version, err, enc, enc2)
	}
	return nil
}

func checkDecodeError(err error, name string, size int) error {
	var e *runtime.Error
	if !errors.As(err, &e) {
		return fmt.Errorf("%s: decode error %v is not a *runtime.Error", name, err)
	}
	if e.Message != name || e.Op != "decode" || e.Offset < 0 || e.Offset > size {
		return fmt.Errorf("%s: malformed decode error %+v", name, e)
	}
	for _, s := range decodeSentinels {
		if errors.Is(err, s) {
			return nil
		}
	}
	return fmt.Errorf("%s: decode error %v wraps no sentinel", name, err)
}
