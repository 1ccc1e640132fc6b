package schema

// Strings, numbers and literals of the syntax scan (json_syntax.go). They
// are only checked here: gjson decodes them (json_values.go).

// str checks a string at its opening quote.
func (s *scanner) str() *syntaxError {
	start := s.i
scan:
	for s.i++; s.i < len(s.src); {
		switch c := s.src[s.i]; {
		case c == '"':
			s.i++
			return nil
		case c == '\\':
			if s.i+1 >= len(s.src) {
				break scan // the file ends after the backslash
			}
			if err := s.escape(); err != nil {
				return err
			}
		case c < 0x20:
			return s.fail("unescaped control character 0x%02x in string", c)
		default:
			s.i++
		}
	}
	s.i = start
	return s.fail("unterminated string")
}

// escape checks the escape at the backslash. A surrogate needs no pair:
// gjson decodes a lone one as U+FFFD.
func (s *scanner) escape() *syntaxError {
	switch c := s.src[s.i+1]; c {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.i += 2
		return nil
	case 'u':
		if s.i+6 > len(s.src) || !isHex4(s.src[s.i+2:s.i+6]) {
			return s.fail("invalid \\u escape in string")
		}
		s.i += 6
		return nil
	default:
		return s.fail("invalid escape \\%c in string", c)
	}
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func (s *scanner) number() *syntaxError {
	start := s.i
	if s.src[s.i] == '-' {
		s.i++
	}
	digits := func() int {
		n := 0
		for s.i < len(s.src) && s.src[s.i] >= '0' && s.src[s.i] <= '9' {
			s.i++
			n++
		}
		return n
	}
	intStart := s.i
	if digits() == 0 {
		return s.fail("invalid number")
	}
	if s.src[intStart] == '0' && s.i-intStart > 1 {
		s.i = intStart
		return s.fail("invalid number: leading zeros are not allowed")
	}
	if s.i < len(s.src) && s.src[s.i] == '.' {
		s.i++
		if digits() == 0 {
			return s.fail("invalid number: expected digits after '.'")
		}
	}
	if s.i < len(s.src) && (s.src[s.i] == 'e' || s.src[s.i] == 'E') {
		s.i++
		if s.i < len(s.src) && (s.src[s.i] == '+' || s.src[s.i] == '-') {
			s.i++
		}
		if digits() == 0 {
			return s.fail("invalid number: expected exponent digits")
		}
	}
	if s.i < len(s.src) && isWordByte(s.src[s.i]) {
		s.i = start
		return s.fail("unexpected %s: expected a value", s.describe())
	}
	return nil
}

// literal checks true, false or null, which must not run on into a word.
func (s *scanner) literal() *syntaxError {
	for _, lit := range [...]string{"true", "false", "null"} {
		n := len(lit)
		if len(s.src)-s.i >= n && string(s.src[s.i:s.i+n]) == lit &&
			(s.i+n == len(s.src) || !isWordByte(s.src[s.i+n])) {
			s.i += n
			return nil
		}
	}
	return s.fail("unexpected %s: expected a value", s.describe())
}
