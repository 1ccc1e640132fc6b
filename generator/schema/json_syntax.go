package schema

import "fmt"

// This file checks a spec file's JSON syntax before gjson reads it
// (json_values.go). gjson assumes valid input and reports no positions, so
// one scan here does what gjson cannot: it finds the first syntax problem
// and where it is, blanks comments (Jackson's ALLOW_COMMENTS) to spaces so
// that every byte keeps its offset, records where every line starts, and
// finds where the top-level value ends.

// syntaxError is the first syntax problem in a document, with the text of
// its diagnostic.
type syntaxError struct {
	offset int
	msg    string
}

func (e *syntaxError) Error() string { return e.msg }

// maxNesting bounds the depth of arrays and objects, so that a hostile file
// cannot exhaust the stack.
const maxNesting = 1000

// scanned is a spec file whose syntax was checked.
type scanned struct {
	// text is the file with its comments blanked, up to the end of the
	// top-level value: what gjson reads.
	text string
	// lines holds the offset of each line start: every line break of the
	// file up to where scanning stopped, even when it failed.
	lines []int
}

// scanner checks one document. It stops at the first problem: the error is
// returned from the scan functions and carried up unchanged.
type scanner struct {
	src []byte // a copy of the file, whose comments the scan blanks
	i   int
	// lines holds the offset of each line start seen so far.
	lines []int
}

// scanJSON checks a spec file's syntax. With trailing false, anything but
// spaces and comments after the top-level value is an error (Jackson's
// FAIL_ON_TRAILING_TOKENS); with true it is ignored unread, as the Jackson
// setup of Kafka's 2.x generator did.
func scanJSON(src []byte, trailing bool) (scanned, *syntaxError) {
	s := &scanner{src: append([]byte(nil), src...), lines: []int{0}}
	err := s.document(trailing)
	if err != nil {
		return scanned{lines: s.lines}, err
	}
	return scanned{text: string(s.src[:s.i]), lines: s.lines}, nil
}

// document scans the top-level value and, unless trailing, what follows
// it. It leaves the offset just past the top-level value.
func (s *scanner) document(trailing bool) *syntaxError {
	if err := s.skipSpace(); err != nil {
		return err
	}
	if s.i >= len(s.src) {
		return &syntaxError{0, "invalid JSON: empty file: expected a JSON object"}
	}
	if err := s.value(0); err != nil || trailing {
		return err
	}
	end := s.i
	if err := s.skipSpace(); err != nil {
		return err
	}
	if s.i < len(s.src) {
		return s.fail("unexpected %s after the end of the JSON document", s.describe())
	}
	s.i = end
	return nil
}

func (s *scanner) fail(format string, args ...any) *syntaxError {
	return &syntaxError{s.i, "invalid JSON: " + fmt.Sprintf(format, args...)}
}

// describe names what stands at the current offset.
func (s *scanner) describe() string {
	if s.i >= len(s.src) {
		return "end of file"
	}
	c := s.src[s.i]
	if c >= 0x20 && c < 0x7f {
		// Show a whole bare word, such as TBD, when there is one.
		j := s.i
		for j < len(s.src) && j-s.i < 20 && isWordByte(s.src[j]) {
			j++
		}
		if j > s.i+1 {
			return fmt.Sprintf("token %q", s.src[s.i:j])
		}
		return fmt.Sprintf("character %q", c)
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// skipSpace skips white space and comments, which count as white space and
// are blanked to spaces (line breaks kept).
func (s *scanner) skipSpace() *syntaxError {
	for s.i < len(s.src) {
		switch s.src[s.i] {
		case '\n':
			s.lines = append(s.lines, s.i+1)
			s.i++
		case ' ', '\t', '\r':
			s.i++
		case '/':
			if s.i+1 >= len(s.src) {
				return nil
			}
			switch s.src[s.i+1] {
			case '/':
				for ; s.i < len(s.src) && s.src[s.i] != '\n'; s.i++ {
					s.src[s.i] = ' '
				}
			case '*':
				if err := s.blockComment(); err != nil {
					return err
				}
			default:
				return nil
			}
		default:
			return nil
		}
	}
	return nil
}

func (s *scanner) blockComment() *syntaxError {
	start := s.i
	s.src[s.i], s.src[s.i+1] = ' ', ' '
	for s.i += 2; s.i < len(s.src); s.i++ {
		switch s.src[s.i] {
		case '\n':
			s.lines = append(s.lines, s.i+1)
			continue
		case '*':
			if s.i+1 < len(s.src) && s.src[s.i+1] == '/' {
				s.src[s.i], s.src[s.i+1] = ' ', ' '
				s.i += 2
				return nil
			}
		}
		s.src[s.i] = ' '
	}
	return &syntaxError{start, "unterminated /* comment"}
}

func (s *scanner) value(depth int) *syntaxError {
	if depth > maxNesting {
		return s.fail("JSON nested more than %d levels deep", maxNesting)
	}
	if err := s.skipSpace(); err != nil {
		return err
	}
	if s.i >= len(s.src) {
		return s.fail("unexpected end of file: expected a value")
	}
	switch c := s.src[s.i]; {
	case c == '{':
		return s.container(depth, '}', "expected ',' or '}'")
	case c == '[':
		return s.container(depth, ']', "expected ',' or ']'")
	case c == '"':
		return s.str()
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	}
	return s.literal()
}

// container scans an object (closing '}') or an array (closing ']') at its
// opening bracket.
func (s *scanner) container(depth int, closing byte, expected string) *syntaxError {
	s.i++
	if err := s.skipSpace(); err != nil {
		return err
	}
	if s.i < len(s.src) && s.src[s.i] == closing {
		s.i++
		return nil
	}
	for {
		if closing == '}' {
			if err := s.key(); err != nil {
				return err
			}
		}
		if err := s.value(depth + 1); err != nil {
			return err
		}
		if err := s.skipSpace(); err != nil {
			return err
		}
		if s.i >= len(s.src) {
			return s.fail("unexpected end of file: %s", expected)
		}
		switch s.src[s.i] {
		case ',':
			s.i++
		case closing:
			s.i++
			return nil
		default:
			return s.fail("unexpected %s: %s", s.describe(), expected)
		}
	}
}

// key scans an object's attribute name and the colon after it.
func (s *scanner) key() *syntaxError {
	if err := s.skipSpace(); err != nil {
		return err
	}
	if s.i >= len(s.src) || s.src[s.i] != '"' {
		return s.fail("unexpected %s: expected a quoted attribute name", s.describe())
	}
	if err := s.str(); err != nil {
		return err
	}
	if err := s.skipSpace(); err != nil {
		return err
	}
	if s.i >= len(s.src) || s.src[s.i] != ':' {
		return s.fail("unexpected %s: expected ':'", s.describe())
	}
	s.i++
	return nil
}
