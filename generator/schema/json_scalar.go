package schema

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Strings and numbers of the JSON reader (json.go).

// str parses a string at the opening quote and returns its decoded text.
// Text without escapes is returned as a slice of the source, unchanged
// (bytes that are not UTF-8 included).
func (p *parser) str() (string, *syntaxError) {
	start := p.i
	p.i++          // opening quote
	var buf []byte // decoded text so far, once an escape was seen
	from := p.i    // start of the text not yet copied to buf
	for p.i < len(p.src) {
		c := p.src[p.i]
		switch {
		case c == '"':
			s := p.src[from:p.i]
			p.i++
			if buf == nil {
				return string(s), nil
			}
			return string(append(buf, s...)), nil
		case c == '\\':
			if p.i+1 >= len(p.src) {
				p.i = start
				return "", p.fail("unterminated string")
			}
			buf = append(buf, p.src[from:p.i]...)
			var err *syntaxError
			if buf, err = p.escape(buf); err != nil {
				return "", err
			}
			from = p.i
		case c < 0x20:
			return "", p.fail("unescaped control character 0x%02x in string", c)
		default:
			p.i++
		}
	}
	p.i = start
	return "", p.fail("unterminated string")
}

// escapes maps the one-letter escapes to their bytes.
var escapes = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// escape decodes the escape at the backslash, appending it to buf. A
// surrogate pair becomes one character; a lone surrogate becomes U+FFFD.
func (p *parser) escape(buf []byte) ([]byte, *syntaxError) {
	c := p.src[p.i+1]
	if c != 'u' {
		if escapes[c] == 0 {
			return buf, p.fail("invalid escape \\%c in string", c)
		}
		p.i += 2
		return append(buf, escapes[c]), nil
	}
	r, ok := p.hex4(p.i + 2)
	if !ok {
		return buf, p.fail("invalid \\u escape in string")
	}
	p.i += 6
	if utf16.IsSurrogate(r) {
		if p.i+1 < len(p.src) && p.src[p.i] == '\\' && p.src[p.i+1] == 'u' {
			if low, ok := p.hex4(p.i + 2); ok {
				if pair := utf16.DecodeRune(r, low); pair != utf8.RuneError {
					p.i += 6
					return utf8.AppendRune(buf, pair), nil
				}
			}
		}
		r = utf8.RuneError
	}
	return utf8.AppendRune(buf, r), nil
}

// hex4 reads the four hex digits at offset at.
func (p *parser) hex4(at int) (rune, bool) {
	if at+4 > len(p.src) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(p.src[at:at+4]), 16, 32)
	return rune(n), err == nil
}

func (p *parser) number() (value, *syntaxError) {
	start := p.i
	if p.src[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.src) && p.src[p.i] >= '0' && p.src[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	intStart := p.i
	if digits() == 0 {
		return value{}, p.fail("invalid number")
	}
	if p.src[intStart] == '0' && p.i-intStart > 1 {
		p.i = intStart
		return value{}, p.fail("invalid number: leading zeros are not allowed")
	}
	if p.i < len(p.src) && p.src[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return value{}, p.fail("invalid number: expected digits after '.'")
		}
	}
	if p.i < len(p.src) && (p.src[p.i] == 'e' || p.src[p.i] == 'E') {
		p.i++
		if p.i < len(p.src) && (p.src[p.i] == '+' || p.src[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return value{}, p.fail("invalid number: expected exponent digits")
		}
	}
	if p.i < len(p.src) && isWordByte(p.src[p.i]) {
		p.i = start
		return value{}, p.fail("unexpected %s: expected a value", p.describe())
	}
	return value{kind: jsonNumber, pos: Pos(start), end: Pos(p.i), text: string(p.src[start:p.i])}, nil
}
