package schema

import "fmt"

// This file is the loader's JSON reader: one pass over a spec file that
// skips comments (Jackson's ALLOW_COMMENTS), checks the syntax strictly,
// records where every line starts, and builds a tree of values that keep
// their byte positions. Everything later (attribute values, positions for
// diagnostics, validation) reads the tree, never the text again.

// valueKind is the JSON kind of a value.
type valueKind uint8

const (
	jsonNull valueKind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

// value is one parsed JSON value.
type value struct {
	kind valueKind
	pos  Pos // first byte
	end  Pos // just past the last byte
	// text is a string's decoded contents, or the raw text of a number or
	// literal (Jackson coerces numbers and booleans to text that way).
	text    string
	items   []value  // array elements
	members []member // object attributes, see parseObject
}

// member is one attribute of an object.
type member struct {
	key   string
	pos   Pos // the key's opening quote
	value value
}

// isTrue reports whether the value is the literal true.
func (v *value) isTrue() bool { return v.kind == jsonBool && v.text == "true" }

// describe names the value's kind for diagnostics ("a string").
func (v *value) describe() string {
	return [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}[v.kind]
}

// lookup returns the attribute key of an object, or nil.
func (v *value) lookup(key string) *member {
	for i := range v.members {
		if v.members[i].key == key {
			return &v.members[i]
		}
	}
	return nil
}

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

// parser reads one document. It stops at the first problem: the error is
// returned from the parse functions and carried up unchanged.
type parser struct {
	src []byte
	i   int
	// lines holds the offset of each line start seen so far; every line
	// break of the document up to where parsing stopped is in it.
	lines []int
}

// parseJSON parses a spec file. With trailing false, anything but spaces
// and comments after the top-level value is an error (Jackson's
// FAIL_ON_TRAILING_TOKENS); with true it is ignored unread, as the Jackson
// setup of Kafka's 2.x generator did. lines is the line index of the text
// read, even when parsing failed.
func parseJSON(src []byte, trailing bool) (root value, lines []int, err *syntaxError) {
	p := &parser{src: src, lines: []int{0}}
	if err := p.skipSpace(); err != nil {
		return value{}, p.lines, err
	}
	if p.i >= len(src) {
		return value{}, p.lines, &syntaxError{0, "invalid JSON: empty file: expected a JSON object"}
	}
	root, err = p.value(0)
	if err != nil {
		return value{}, p.lines, err
	}
	if trailing {
		return root, p.lines, nil
	}
	if err := p.skipSpace(); err != nil {
		return value{}, p.lines, err
	}
	if p.i < len(src) {
		return value{}, p.lines, p.fail("unexpected %s after the end of the JSON document", p.describe())
	}
	return root, p.lines, nil
}

func (p *parser) fail(format string, args ...any) *syntaxError {
	return &syntaxError{p.i, "invalid JSON: " + fmt.Sprintf(format, args...)}
}

// describe names what stands at the current offset.
func (p *parser) describe() string {
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

// newline records the line starting after the line break at offset i.
func (p *parser) newline(i int) { p.lines = append(p.lines, i+1) }

// skipSpace skips white space and comments, which count as white space.
func (p *parser) skipSpace() *syntaxError {
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case '\n':
			p.newline(p.i)
			p.i++
		case ' ', '\t', '\r':
			p.i++
		case '/':
			if p.i+1 >= len(p.src) {
				return nil
			}
			switch p.src[p.i+1] {
			case '/':
				for p.i < len(p.src) && p.src[p.i] != '\n' {
					p.i++
				}
			case '*':
				if err := p.blockComment(); err != nil {
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

func (p *parser) blockComment() *syntaxError {
	start := p.i
	for p.i += 2; p.i < len(p.src); p.i++ {
		switch p.src[p.i] {
		case '\n':
			p.newline(p.i)
		case '*':
			if p.i+1 < len(p.src) && p.src[p.i+1] == '/' {
				p.i += 2
				return nil
			}
		}
	}
	return &syntaxError{start, "unterminated /* comment"}
}

func (p *parser) value(depth int) (value, *syntaxError) {
	if depth > maxNesting {
		return value{}, p.fail("JSON nested more than %d levels deep", maxNesting)
	}
	if err := p.skipSpace(); err != nil {
		return value{}, err
	}
	if p.i >= len(p.src) {
		return value{}, p.fail("unexpected end of file: expected a value")
	}
	switch c := p.src[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		start := p.i
		s, err := p.str()
		return value{kind: jsonString, pos: Pos(start), end: Pos(p.i), text: s}, err
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	for _, lit := range [...]struct {
		text string
		kind valueKind
	}{{"true", jsonBool}, {"false", jsonBool}, {"null", jsonNull}} {
		n := len(lit.text)
		if len(p.src)-p.i >= n && string(p.src[p.i:p.i+n]) == lit.text &&
			(p.i+n == len(p.src) || !isWordByte(p.src[p.i+n])) {
			p.i += n
			return value{kind: lit.kind, pos: Pos(p.i - n), end: Pos(p.i), text: lit.text}, nil
		}
	}
	return value{}, p.fail("unexpected %s: expected a value", p.describe())
}

// object parses an object. Its members keep Jackson's reading of duplicate
// keys: the last value wins, listed where the key first appeared.
func (p *parser) object(depth int) (value, *syntaxError) {
	obj := value{kind: jsonObject, pos: Pos(p.i)}
	p.i++ // {
	if err := p.skipSpace(); err != nil {
		return obj, err
	}
	if p.i < len(p.src) && p.src[p.i] == '}' {
		p.i++
		obj.end = Pos(p.i)
		return obj, nil
	}
	for {
		if err := p.skipSpace(); err != nil {
			return obj, err
		}
		if p.i >= len(p.src) || p.src[p.i] != '"' {
			return obj, p.fail("unexpected %s: expected a quoted attribute name", p.describe())
		}
		keyPos := Pos(p.i)
		key, err := p.str()
		if err != nil {
			return obj, err
		}
		if err := p.skipSpace(); err != nil {
			return obj, err
		}
		if p.i >= len(p.src) || p.src[p.i] != ':' {
			return obj, p.fail("unexpected %s: expected ':'", p.describe())
		}
		p.i++
		val, err := p.value(depth + 1)
		if err != nil {
			return obj, err
		}
		m := member{key: key, pos: keyPos, value: val}
		if prev := obj.lookup(key); prev != nil {
			*prev = m
		} else {
			obj.members = append(obj.members, m)
		}
		if err := p.skipSpace(); err != nil {
			return obj, err
		}
		if p.i >= len(p.src) {
			return obj, p.fail("unexpected end of file: expected ',' or '}'")
		}
		switch p.src[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			obj.end = Pos(p.i)
			return obj, nil
		default:
			return obj, p.fail("unexpected %s: expected ',' or '}'", p.describe())
		}
	}
}

func (p *parser) array(depth int) (value, *syntaxError) {
	arr := value{kind: jsonArray, pos: Pos(p.i)}
	p.i++ // [
	if err := p.skipSpace(); err != nil {
		return arr, err
	}
	if p.i < len(p.src) && p.src[p.i] == ']' {
		p.i++
		arr.end = Pos(p.i)
		return arr, nil
	}
	for {
		item, err := p.value(depth + 1)
		if err != nil {
			return arr, err
		}
		arr.items = append(arr.items, item)
		if err := p.skipSpace(); err != nil {
			return arr, err
		}
		if p.i >= len(p.src) {
			return arr, p.fail("unexpected end of file: expected ',' or ']'")
		}
		switch p.src[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			arr.end = Pos(p.i)
			return arr, nil
		default:
			return arr, p.fail("unexpected %s: expected ',' or ']'", p.describe())
		}
	}
}
