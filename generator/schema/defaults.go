package schema

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/kafkagen/kafkagen/runtime/codec"
)

// The Parse*Default functions read a field's "default" text the way Kafka's
// generator does (FieldSpec.fieldDefault), so that the code emitter can turn
// it into a Go literal. An empty text is the type's zero value. Validation
// reports every default these functions reject, so after a successful Load
// they never fail on a spec's defaults.

// ParseBoolDefault reads a bool default: empty, or "true" / "false" in any
// letter case.
func ParseBoolDefault(text string) (bool, error) {
	switch strings.ToLower(text) {
	case "", "false":
		return false, nil
	case "true":
		return true, nil
	}
	return false, fmt.Errorf("%q is not true or false", text)
}

// ParseIntDefault reads an int8, int16, int32 or int64 default (bits = 8, 16,
// 32 or 64): decimal with an optional sign, or hexadecimal after a lower-case
// "0x" prefix. Kafka pastes the text verbatim into Java source, so a signed
// hexadecimal default ("0x-1") and a bare "0x" are rejected.
func ParseIntDefault(text string, bits int) (int64, error) {
	if bits != 8 && bits != 16 && bits != 32 && bits != 64 {
		return 0, fmt.Errorf("unsupported integer size %d", bits)
	}
	if text == "" {
		return 0, nil
	}
	digits, base, err := intDigits(text)
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(digits, base, bits)
	if err != nil {
		return 0, intError(text, fmt.Sprintf("int%d", bits), err)
	}
	return n, nil
}

// ParseUintDefault reads a uint16 or uint32 default (bits = 16 or 32), with
// the syntax of ParseIntDefault; the value must lie in 0..65535 or
// 0..4294967295.
func ParseUintDefault(text string, bits int) (uint64, error) {
	if bits != 16 && bits != 32 {
		return 0, fmt.Errorf("unsupported unsigned integer size %d", bits)
	}
	if text == "" {
		return 0, nil
	}
	digits, base, err := intDigits(text)
	if err != nil {
		return 0, err
	}
	typ := fmt.Sprintf("uint%d", bits)
	n, err := strconv.ParseInt(digits, base, 64)
	if err != nil {
		return 0, intError(text, typ, err)
	}
	if n < 0 || n > int64(1)<<bits-1 {
		return 0, fmt.Errorf("%s is out of range for %s", text, typ)
	}
	return uint64(n), nil
}

// intDigits splits an integer default into its digits and base.
func intDigits(text string) (string, int, error) {
	if !strings.HasPrefix(text, "0x") {
		return text, 10, nil
	}
	digits := text[2:]
	if digits == "" {
		return "", 0, fmt.Errorf("%s has no digits after 0x", text)
	}
	if digits[0] == '-' || digits[0] == '+' {
		return "", 0, fmt.Errorf("%s: a hexadecimal default cannot have a sign", text)
	}
	return digits, 16, nil
}

func intError(text, typ string, err error) error {
	if errors.Is(err, strconv.ErrRange) {
		return fmt.Errorf("%s is out of range for %s", text, typ)
	}
	return fmt.Errorf("%s is not a decimal or 0x-prefixed hexadecimal integer", text)
}

// ParseFloatDefault reads a float64 default as Java's Double.parseDouble does
// (surrounding white space is ignored; a value too large for float64 is an
// infinity).
func ParseFloatDefault(text string) (float64, error) {
	s := strings.TrimSpace(text)
	if s == "" {
		if text == "" {
			return 0, nil
		}
		return 0, fmt.Errorf("%q is not a number", text)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("%s is not a number", text)
	}
	if math.IsNaN(f) {
		// Java's Double.parseDouble("NaN"), not Go's math.NaN(): the one NaN
		// every consumer of the parsed default (printers, dump) then holds.
		f = math.Float64frombits(codec.JavaNaNBits)
	}
	return f, nil
}

// ParseUUIDDefault reads a uuid default: URL-safe base64 (the form of Kafka's
// Uuid.toString, normally 22 characters without padding) of exactly 16 bytes,
// and at most 24 characters, as Uuid.fromString requires.
func ParseUUIDDefault(text string) ([16]byte, error) {
	var u [16]byte
	if text == "" {
		return u, nil
	}
	if len(text) > 24 {
		return u, fmt.Errorf("%s is longer than 24 characters", text)
	}
	if strings.ContainsAny(text, "\r\n") {
		return u, fmt.Errorf("%q is not URL-safe base64", text)
	}
	enc := base64.RawURLEncoding
	if strings.HasSuffix(text, "=") {
		enc = base64.URLEncoding
	}
	b, err := enc.DecodeString(text)
	if err != nil {
		return u, fmt.Errorf("%s is not URL-safe base64", text)
	}
	if len(b) != 16 {
		return u, fmt.Errorf("%s decodes to %d bytes, not 16", text, len(b))
	}
	copy(u[:], b)
	return u, nil
}
