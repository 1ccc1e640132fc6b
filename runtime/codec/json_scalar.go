package codec

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/kafkagen/kafkagen/runtime"
)

// This file holds JSONReader's value readers: numbers, strings, bytes,
// uuids and unknown tagged fields.

// number consumes a JSON number token and reports whether it is an integer
// (no fraction, no exponent). It fails on anything else.
func (r *JSONReader) number(what string) (tok []byte, integer bool) {
	if r.err != nil {
		return nil, false
	}
	c := r.peek()
	if c != '-' && (c < '0' || c > '9') {
		r.expected(what)
		return nil, false
	}
	b, start := r.buf, r.off
	i := start
	if b[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	intStart := i
	if n := digits(); n == 0 || n > 1 && b[intStart] == '0' {
		r.failAt(start, runtime.ErrJSONSyntax, "malformed number")
		return nil, false
	}
	integer = true
	if i < len(b) && b[i] == '.' {
		i++
		integer = false
		if digits() == 0 {
			r.failAt(start, runtime.ErrJSONSyntax, "malformed number")
			return nil, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		integer = false
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			r.failAt(start, runtime.ErrJSONSyntax, "malformed number")
			return nil, false
		}
	}
	r.off = i
	return b[start:i], integer
}

// integer reads a JSON integer within [lo, hi]; typ names the field's type
// in errors.
func (r *JSONReader) integer(lo int64, hi uint64, typ string) (neg bool, mag uint64) {
	start := r.off
	tok, isInt := r.number("an integer")
	if r.err != nil {
		return false, 0
	}
	if !isInt {
		r.failAt(start, runtime.ErrJSONType, fmt.Sprintf("expected an integer (%s), found %s", typ, tok))
		return false, 0
	}
	if tok[0] == '-' {
		neg = true
		tok = tok[1:]
	}
	for _, c := range tok {
		d := uint64(c - '0')
		if mag > (math.MaxUint64-d)/10 {
			mag = math.MaxUint64
			break
		}
		mag = mag*10 + d
	}
	if neg && mag > uint64(-lo) || !neg && mag > hi {
		r.failAt(start, runtime.ErrJSONType, fmt.Sprintf("%s does not fit in %s", r.buf[start:r.off], typ))
		return false, 0
	}
	return neg, mag
}

func (r *JSONReader) signed(bits uint, typ string) int64 {
	lo := int64(-1) << (bits - 1)
	neg, mag := r.integer(lo, uint64(-(lo + 1)), typ)
	if neg {
		return -int64(mag) // mag ≤ 2^63 wraps to MinInt64 as intended
	}
	return int64(mag)
}

// Int8 reads an integer that fits in int8.
func (r *JSONReader) Int8() int8 { return int8(r.signed(8, "int8")) }

// Int16 reads an integer that fits in int16.
func (r *JSONReader) Int16() int16 { return int16(r.signed(16, "int16")) }

// Int32 reads an integer that fits in int32.
func (r *JSONReader) Int32() int32 { return int32(r.signed(32, "int32")) }

// Int64 reads an integer that fits in int64.
func (r *JSONReader) Int64() int64 { return r.signed(64, "int64") }

// Uint16 reads an integer from 0 to 65535.
func (r *JSONReader) Uint16() uint16 {
	_, mag := r.integer(0, math.MaxUint16, "uint16")
	return uint16(mag)
}

// Uint32 reads an integer from 0 to 4294967295.
func (r *JSONReader) Uint32() uint32 {
	_, mag := r.integer(0, math.MaxUint32, "uint32")
	return uint32(mag)
}

// JavaNaNBits are the bits of Java's Double.NaN, the NaN Kafka's peers
// write and Double.parseDouble("NaN") gives; Go's math.NaN() has other bits
// (0x7ff8000000000001). Wherever kafkagen stands for Java, at run time or
// in what it generates, a NaN has these bits.
const JavaNaNBits = 0x7ff8000000000000

// Float64 reads a JSON number, or one of the strings "NaN", "Infinity" and
// "-Infinity" that AppendJSONFloat64 writes (Jackson's form; Kafka's
// own reader refuses them). "NaN" reads as Java's NaN, so that the bytes a
// Java peer wrote re-encode as they were; other NaN payloads, which JSON
// cannot carry, come back as it too.
func (r *JSONReader) Float64() float64 {
	if r.err != nil {
		return 0
	}
	start := r.off
	if r.peek() == '"' {
		start = r.off
		s, ok := r.str(&r.scratch)
		if !ok {
			return 0
		}
		switch string(s) {
		case "NaN":
			return math.Float64frombits(JavaNaNBits)
		case "Infinity":
			return math.Inf(1)
		case "-Infinity":
			return math.Inf(-1)
		}
		r.failAt(start, runtime.ErrJSONType, fmt.Sprintf("expected a number, NaN, Infinity or -Infinity, found the string %q", s))
		return 0
	}
	tok, _ := r.number("a number")
	if r.err != nil {
		return 0
	}
	f, err := strconv.ParseFloat(string(tok), 64)
	if err != nil {
		r.failAt(start, runtime.ErrJSONType, fmt.Sprintf("%s is out of the range of float64", tok))
		return 0
	}
	return f
}

// String reads a string of at most MaxStringLen bytes of UTF-8; null fails
// with ErrNull. An unchanged old is returned as it is, without allocating.
func (r *JSONReader) String(old string) string {
	if r.err != nil {
		return ""
	}
	if r.peek() != '"' {
		r.expected("a string")
		return ""
	}
	start := r.off
	s, ok := r.str(&r.scratch)
	if !ok {
		return ""
	}
	if len(s) > runtime.MaxStringLen {
		r.failAt(start, runtime.ErrStringTooLong, fmt.Sprintf("%d bytes", len(s)))
		return ""
	}
	if string(s) == old {
		return old
	}
	return string(s)
}

// Bytes reads bytes or records written as a base64 string (standard
// alphabet, padded or not) into old's capacity; null fails with ErrNull.
// The result is never nil.
func (r *JSONReader) Bytes(old []byte) []byte {
	if r.err != nil {
		return nil
	}
	if r.peek() != '"' {
		r.expected("a base64 string")
		return nil
	}
	start := r.off
	s, ok := r.str(&r.scratch)
	if !ok {
		return nil
	}
	enc := base64.StdEncoding
	if len(s)%4 != 0 {
		enc = base64.RawStdEncoding
	}
	out, err := enc.AppendDecode(old[:0], s)
	if err != nil {
		r.failAt(start, runtime.ErrJSONType, fmt.Sprintf("invalid base64: %v", err))
		return nil
	}
	if out == nil {
		out = []byte{}
	}
	return out
}

// UUID reads a uuid in Kafka's form: 22 base64url characters (padding
// allowed, as Java's Uuid.fromString allows it).
func (r *JSONReader) UUID() runtime.UUID {
	var u runtime.UUID
	if r.err != nil {
		return u
	}
	if r.peek() != '"' {
		r.expected("a uuid string")
		return u
	}
	start := r.off
	s, ok := r.str(&r.scratch)
	if !ok {
		return u
	}
	t := s
	for len(t) > 0 && t[len(t)-1] == '=' {
		t = t[:len(t)-1]
	}
	// Decode writes past a 16-byte buffer for longer input: check first.
	if len(t) != 22 {
		r.failAt(start, runtime.ErrJSONType, fmt.Sprintf("invalid uuid %q: want 22 base64url characters", s))
		return u
	}
	if n, err := base64.RawURLEncoding.Decode(u[:], t); err != nil || n != 16 {
		r.failAt(start, runtime.ErrJSONType, fmt.Sprintf("invalid uuid %q: want 22 base64url characters", s))
	}
	return u
}

// str reads a JSON string at the offset (at its '"'). Without escapes it
// returns the window of the input; otherwise it unescapes into *buf, which
// keeps the grown capacity. Bytes that are not UTF-8 are refused, as Java's
// JSON reader refuses them.
func (r *JSONReader) str(buf *[]byte) ([]byte, bool) {
	b := r.buf
	start := r.off
	i := start + 1
	for i < len(b) && b[i] != '"' && b[i] != '\\' && b[i] >= 0x20 {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		c, size := utf8.DecodeRune(b[i:])
		if c == utf8.RuneError && size == 1 {
			r.failAt(i, runtime.ErrJSONSyntax, fmt.Sprintf("invalid UTF-8 byte %#02x in a string", b[i]))
			return nil, false
		}
		i += size
	}
	if i < len(b) && b[i] == '"' {
		r.off = i + 1
		return b[start+1 : i], true
	}
	out := append((*buf)[:0], b[start+1:i]...)
	for {
		if i >= len(b) {
			r.failAt(start, runtime.ErrJSONSyntax, "unterminated string")
			return nil, false
		}
		c := b[i]
		switch {
		case c == '"':
			r.off = i + 1
			*buf = out
			return out, true
		case c < 0x20:
			r.failAt(i, runtime.ErrJSONSyntax, fmt.Sprintf("control character %#02x in a string", c))
			return nil, false
		case c >= utf8.RuneSelf:
			ru, size := utf8.DecodeRune(b[i:])
			if ru == utf8.RuneError && size == 1 {
				r.failAt(i, runtime.ErrJSONSyntax, fmt.Sprintf("invalid UTF-8 byte %#02x in a string", c))
				return nil, false
			}
			out = append(out, b[i:i+size]...)
			i += size
			continue
		case c != '\\':
			out = append(out, c)
			i++
			continue
		}
		if i+1 >= len(b) {
			r.failAt(start, runtime.ErrJSONSyntax, "unterminated string")
			return nil, false
		}
		esc := b[i+1]
		i += 2
		switch esc {
		case '"', '\\', '/':
			out = append(out, esc)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			c1, ok := hex4(b, i)
			if !ok {
				r.failAt(i-2, runtime.ErrJSONSyntax, "malformed \\u escape")
				return nil, false
			}
			i += 4
			ru := rune(c1)
			if utf16.IsSurrogate(ru) {
				ru = utf8.RuneError // a lone surrogate, unless its pair follows
				if i+6 <= len(b) && b[i] == '\\' && b[i+1] == 'u' {
					if c2, ok := hex4(b, i+2); ok {
						if pair := utf16.DecodeRune(rune(c1), rune(c2)); pair != utf8.RuneError {
							ru = pair
							i += 6
						}
					}
				}
			}
			out = utf8.AppendRune(out, ru)
		default:
			r.failAt(i-2, runtime.ErrJSONSyntax, fmt.Sprintf("invalid escape \\%c", esc))
			return nil, false
		}
	}
}

// hex4 parses the four hex digits at b[i:].
func hex4(b []byte, i int) (uint16, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var v uint16
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		v = v<<4 | uint16(c)
	}
	return v, true
}
