package codec

import (
	"encoding/base64"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/kafkagen/kafkagen/runtime"
)

// This file holds the append-style writers of Kafka's JSON form (the one its
// generated JsonConverter classes write through Jackson): numbers as JSON
// numbers (int64 included), bytes as padded standard base64, uuids in
// Kafka's unpadded base64url, float64 in Java's Double.toString form with
// NaN and the infinities as the strings Jackson writes for them.

// AppendJSONBool appends true or false.
func AppendJSONBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

// AppendJSONInt appends a signed integer as a JSON number.
func AppendJSONInt(b []byte, v int64) []byte { return strconv.AppendInt(b, v, 10) }

// AppendJSONUint appends an unsigned integer (uint16, uint32) as a JSON number.
func AppendJSONUint(b []byte, v uint64) []byte { return strconv.AppendUint(b, v, 10) }

// AppendJSONUUID appends a uuid as Kafka's Uuid.toString writes it: a JSON
// string of 22 base64url characters without padding.
func AppendJSONUUID(b []byte, u runtime.UUID) []byte {
	b = append(b, '"')
	b = base64.RawURLEncoding.AppendEncode(b, u[:])
	return append(b, '"')
}

// AppendJSONBytes appends bytes as a JSON string of standard, padded base64
// (Jackson's default variant). Callers write null for nil themselves, where
// the field is nullable.
func AppendJSONBytes(b []byte, v []byte) []byte {
	b = append(b, '"')
	b = base64.StdEncoding.AppendEncode(b, v)
	return append(b, '"')
}

// hexDigits are the upper-case digits Jackson uses in \u escapes.
const hexDigits = "0123456789ABCDEF"

// AppendJSONString appends s as a JSON string, escaped as Jackson escapes
// it: '"' and '\\', the short forms \b \t \n \f \r, other control
// characters as \u00XX; everything else, non-ASCII included, as it is.
// Bytes that are not valid UTF-8 are each written as U+FFFD, the character
// Java's decoder puts in their place.
func AppendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size > 1 {
				i += size
				continue
			}
			b = append(b, s[start:i]...)
			b = append(b, "\uFFFD"...)
			i++
			start = i
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, '\\', 'b')
		case '\t':
			b = append(b, '\\', 't')
		case '\n':
			b = append(b, '\\', 'n')
		case '\f':
			b = append(b, '\\', 'f')
		case '\r':
			b = append(b, '\\', 'r')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// AppendJSONFloat64 appends a float64 as Jackson writes a Java double: the
// digits of Java's Double.toString (the shortest that read back to the same
// value, at least two when one would do, the closer of them), in plain
// notation from 10^-3 to below 10^7 ("0.001", "1234567.0") and as
// d.dddEn otherwise ("1.0E7", "4.9E-324"); NaN and the infinities as the
// JSON strings "NaN", "Infinity" and "-Infinity", which ReadFloat64 of
// JSONReader accepts back.
func AppendJSONFloat64(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(b, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(b, `"-Infinity"`...)
	case f == 0:
		if math.Signbit(f) {
			return append(b, "-0.0"...)
		}
		return append(b, "0.0"...)
	}
	var buf [32]byte
	digits, exp := javaDigits(buf[:0], f)
	if f < 0 {
		b = append(b, '-')
	}
	abs := math.Abs(f)
	if abs >= 1e-3 && abs < 1e7 {
		if exp >= 0 {
			if len(digits) > exp+1 {
				b = append(b, digits[:exp+1]...)
				b = append(b, '.')
				return append(b, digits[exp+1:]...)
			}
			b = append(b, digits...)
			for i := len(digits); i <= exp; i++ {
				b = append(b, '0')
			}
			return append(b, ".0"...)
		}
		b = append(b, "0."...)
		for i := -1; i > exp; i-- {
			b = append(b, '0')
		}
		return append(b, digits...)
	}
	b = append(b, digits[0], '.')
	if len(digits) > 1 {
		b = append(b, digits[1:]...)
	} else {
		b = append(b, '0')
	}
	b = append(b, 'E')
	return strconv.AppendInt(b, int64(exp), 10)
}

// javaDigits returns the significant decimal digits Double.toString chooses
// for a finite, non-zero f (no sign, no trailing zeros) and the decimal
// exponent of the first one. Java takes the shortest decimal that reads back
// to f, except that when one digit would do it takes the closest decimal of
// one or two digits: the correctly rounded two-digit form, when it reads
// back to f.
func javaDigits(dst []byte, f float64) ([]byte, int) {
	s := strconv.AppendFloat(dst, math.Abs(f), 'e', -1, 64)
	digits, exp := splitExp(s)
	if len(digits) == 1 {
		var buf [32]byte
		two := strconv.AppendFloat(buf[:0], math.Abs(f), 'e', 1, 64)
		if back, err := strconv.ParseFloat(string(two), 64); err == nil && back == math.Abs(f) {
			d2, e2 := splitExp(two)
			digits = append(digits[:0], d2...)
			exp = e2
		}
	}
	for len(digits) > 1 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	return digits, exp
}

// splitExp splits strconv's 'e' form "d.ddde±xx" into its digits (in place,
// without the point) and exponent.
func splitExp(s []byte) ([]byte, int) {
	e := len(s) - 1
	for s[e] != 'e' {
		e--
	}
	exp := 0
	for _, c := range s[e+2:] { // after the sign
		exp = exp*10 + int(c-'0')
	}
	if s[e+1] == '-' {
		exp = -exp
	}
	digits := s[:0]
	for _, c := range s[:e] {
		if c != '.' {
			digits = append(digits, c)
		}
	}
	return digits, exp
}
