package schema

import "fmt"

// syntaxError is the first JSON syntax problem in a document.
type syntaxError struct {
	offset int
	msg    string
}

func (e *syntaxError) Error() string { return e.msg }

// checkSyntax validates a comment-free JSON document strictly (as Jackson
// does with FAIL_ON_TRAILING_TOKENS) and locates the first error. gjson,
// which then walks the document, assumes valid input and reports no positions.
func checkSyntax(src []byte) *syntaxError {
	p := &syntaxParser{src: src}
	p.skipSpace()
	if p.i >= len(src) {
		return &syntaxError{0, "empty file: expected a JSON object"}
	}
	if err := p.value(0); err != nil {
		return err
	}
	p.skipSpace()
	if p.i < len(src) {
		return p.fail("unexpected %s after the end of the JSON document", p.describe())
	}
	return nil
}

type syntaxParser struct {
	src []byte
	i   int
}

const maxNesting = 1000

func (p *syntaxParser) fail(format string, args ...any) *syntaxError {
	return &syntaxError{p.i, fmt.Sprintf(format, args...)}
}

func (p *syntaxParser) describe() string {
	if p.i >= len(p.src) {
		return "end of file"
	}
	c := p.src[p.i]
	if c >= 0x20 && c < 0x7f {
		// Show a whole bare word, such as TBD, when there is one.
		j := p.i
		for j < len(p.src) && j-p.i < 20 && isWordByte(p.src[j]) {
			j++
		}
		if j > p.i+1 {
			return fmt.Sprintf("token %q", p.src[p.i:j])
		}
		return fmt.Sprintf("character %q", c)
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (p *syntaxParser) skipSpace() {
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *syntaxParser) value(depth int) *syntaxError {
	if depth > maxNesting {
		return p.fail("JSON nested more than %d levels deep", maxNesting)
	}
	p.skipSpace()
	if p.i >= len(p.src) {
		return p.fail("unexpected end of file: expected a value")
	}
	switch c := p.src[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if len(p.src)-p.i >= len(lit) && string(p.src[p.i:p.i+len(lit)]) == lit &&
				(p.i+len(lit) == len(p.src) || !isWordByte(p.src[p.i+len(lit)])) {
				p.i += len(lit)
				return nil
			}
		}
		return p.fail("unexpected %s: expected a value", p.describe())
	}
}

func (p *syntaxParser) object(depth int) *syntaxError {
	p.i++ // {
	p.skipSpace()
	if p.i < len(p.src) && p.src[p.i] == '}' {
		p.i++
		return nil
	}
	for {
		p.skipSpace()
		if p.i >= len(p.src) || p.src[p.i] != '"' {
			return p.fail("unexpected %s: expected a quoted attribute name", p.describe())
		}
		if err := p.str(); err != nil {
			return err
		}
		p.skipSpace()
		if p.i >= len(p.src) || p.src[p.i] != ':' {
			return p.fail("unexpected %s: expected ':'", p.describe())
		}
		p.i++
		if err := p.value(depth + 1); err != nil {
			return err
		}
		p.skipSpace()
		if p.i >= len(p.src) {
			return p.fail("unexpected end of file: expected ',' or '}'")
		}
		switch p.src[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return nil
		default:
			return p.fail("unexpected %s: expected ',' or '}'", p.describe())
		}
	}
}

func (p *syntaxParser) array(depth int) *syntaxError {
	p.i++ // [
	p.skipSpace()
	if p.i < len(p.src) && p.src[p.i] == ']' {
		p.i++
		return nil
	}
	for {
		if err := p.value(depth + 1); err != nil {
			return err
		}
		p.skipSpace()
		if p.i >= len(p.src) {
			return p.fail("unexpected end of file: expected ',' or ']'")
		}
		switch p.src[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return nil
		default:
			return p.fail("unexpected %s: expected ',' or ']'", p.describe())
		}
	}
}

func (p *syntaxParser) str() *syntaxError {
	start := p.i
	p.i++ // opening quote
	for p.i < len(p.src) {
		c := p.src[p.i]
		switch {
		case c == '"':
			p.i++
			return nil
		case c == '\\':
			if p.i+1 >= len(p.src) {
				p.i = len(p.src) // a backslash at the end: unterminated
				continue
			}
			switch p.src[p.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.i += 2
			case 'u':
				if p.i+6 > len(p.src) || !isHex4(p.src[p.i+2:p.i+6]) {
					return p.fail("invalid \\u escape in string")
				}
				p.i += 6
			default:
				return p.fail("invalid escape \\%c in string", p.src[p.i+1])
			}
		case c < 0x20:
			return p.fail("unescaped control character 0x%02x in string", c)
		default:
			p.i++
		}
	}
	p.i = start
	return p.fail("unterminated string")
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func (p *syntaxParser) number() *syntaxError {
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
		return p.fail("invalid number")
	}
	if p.src[intStart] == '0' && p.i-intStart > 1 {
		p.i = intStart
		return p.fail("invalid number: leading zeros are not allowed")
	}
	if p.i < len(p.src) && p.src[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return p.fail("invalid number: expected digits after '.'")
		}
	}
	if p.i < len(p.src) && (p.src[p.i] == 'e' || p.src[p.i] == 'E') {
		p.i++
		if p.i < len(p.src) && (p.src[p.i] == '+' || p.src[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return p.fail("invalid number: expected exponent digits")
		}
	}
	if p.i < len(p.src) && isWordByte(p.src[p.i]) {
		p.i = start
		return p.fail("unexpected %s: expected a value", p.describe())
	}
	return nil
}
