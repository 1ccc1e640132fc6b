package codec

import (
	"fmt"

	"github.com/kafkagen/kafkagen/runtime"
)

// JSONReader reads Kafka's JSON form for generated code: a small tokenizer
// over a byte slice, driven by the schema (no reflection, no generic value
// tree). Like Reader its error is sticky: after the first failure every read
// returns a zero value and the loops end. The reader keeps the path of the
// value being read (Field pushes a key, Index sets an array index, Pop ends
// the field), so that Finish returns the error with the field path and the
// byte offset in the input.
type JSONReader struct {
	buf     []byte
	off     int
	version int16
	// afterOpen: the last token was '{' or '[', so the next key or element
	// needs no comma.
	afterOpen bool
	key       []byte // the current object key, unescaped
	keyAt     int    // offset of the current key's opening quote
	endAt     int    // offset of the '}' that ended the last object
	keyBuf    []byte // keys with escapes are unescaped here
	scratch   []byte // unescaped strings
	err       *runtime.Error
	path      []pathElem // of the value being read, outermost first
}

// pathElem is one step of a field path: a key, and the array index within
// its value (-1 when none).
type pathElem struct {
	key   string
	index int
}

// Init prepares r to read data as a message at version.
func (r *JSONReader) Init(data []byte, version int16) {
	*r = JSONReader{buf: data, version: version, scratch: r.scratch[:0], keyBuf: r.keyBuf[:0]}
}

// Failed reports whether a read has failed.
func (r *JSONReader) Failed() bool { return r.err != nil }

// Offset is the byte offset of the next unread token.
func (r *JSONReader) Offset() int { return r.off }

// Fail records err (the first failure wins) at the current offset.
func (r *JSONReader) Fail(err error, detail string) { r.failAt(r.off, err, detail) }

func (r *JSONReader) failAt(pos int, err error, detail string) {
	if r.err == nil {
		r.err = &runtime.Error{Op: "unmarshal JSON", Offset: pos, Err: err, Detail: detail}
	}
	r.off = len(r.buf)
}

// push enters the value of key.
func (r *JSONReader) push(key string) { r.path = append(r.path, pathElem{key, -1}) }

// Pop leaves the value of the field Field entered, unless the read failed:
// the path then stays as it was at the failure.
func (r *JSONReader) Pop() {
	if r.err == nil && len(r.path) > 0 {
		r.path = r.path[:len(r.path)-1]
	}
}

// Index records that element i of the current field's array is being read.
func (r *JSONReader) Index(i int) {
	if r.err == nil && len(r.path) > 0 {
		r.path[len(r.path)-1].index = i
	}
}

// Finish checks that nothing but white space follows the message and
// returns the error of a failed read, naming the message, the version, the
// field path and the byte offset.
func (r *JSONReader) Finish(message string, version int16) error {
	if r.err == nil {
		r.ws()
		if r.off < len(r.buf) {
			r.Fail(runtime.ErrJSONSyntax, "data after the message")
		}
	}
	if r.err == nil {
		return nil
	}
	e := r.err
	e.Message, e.Version = message, version
	for i, p := range r.path {
		if i > 0 {
			e.Field += "."
		}
		e.Field += p.key
		if p.index >= 0 {
			e.Field += fmt.Sprintf("[%d]", p.index)
		}
	}
	return e
}

// ws skips JSON white space.
func (r *JSONReader) ws() {
	for r.off < len(r.buf) {
		switch r.buf[r.off] {
		case ' ', '\t', '\n', '\r':
			r.off++
		default:
			return
		}
	}
}

// peek skips white space and returns the next byte, 0 at the end.
func (r *JSONReader) peek() byte {
	r.ws()
	if r.off < len(r.buf) {
		return r.buf[r.off]
	}
	return 0
}

// describe names the JSON value starting with c, for type errors.
func describe(c byte) string {
	switch {
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c == '-' || c >= '0' && c <= '9':
		return "a number"
	case c == 0:
		return "the end of the input"
	}
	return fmt.Sprintf("%q", c)
}

// expected fails because the value at the current offset is not what the
// field needs: null gets ErrNull, another JSON value ErrJSONType, anything
// else ErrJSONSyntax.
func (r *JSONReader) expected(what string) {
	if r.err != nil {
		return
	}
	c := r.peek()
	switch {
	case c == 'n' && r.literal("null"):
		r.off -= 4
		r.Fail(runtime.ErrNull, "")
	case !valueStart(c) || c == 'n' || c == 't' && !r.hasLiteral("true") || c == 'f' && !r.hasLiteral("false"):
		r.Fail(runtime.ErrJSONSyntax, fmt.Sprintf("expected %s, found %s", what, describe(c)))
	default:
		r.Fail(runtime.ErrJSONType, fmt.Sprintf("expected %s, found %s", what, describe(c)))
	}
}

// valueStart reports whether c can start a JSON value.
func valueStart(c byte) bool {
	switch c {
	case '{', '[', '"', 't', 'f', 'n', '-':
		return true
	}
	return c >= '0' && c <= '9'
}

// literal consumes word (true, false, null) when it is next and whole.
func (r *JSONReader) literal(word string) bool {
	if !r.hasLiteral(word) {
		return false
	}
	r.off += len(word)
	return true
}

// hasLiteral reports whether word is next and whole.
func (r *JSONReader) hasLiteral(word string) bool {
	end := r.off + len(word)
	if end > len(r.buf) || string(r.buf[r.off:end]) != word {
		return false
	}
	if end < len(r.buf) {
		if c := r.buf[end]; c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			return false
		}
	}
	return true
}

// Nullability tells NotNull and ArrayStart whether the field may be null
// at the version read: generated code passes NullAllowed, NullRefused or
// Nullability(a version test).
type Nullability bool

const (
	// NullRefused: a null fails with ErrNull.
	NullRefused Nullability = false
	// NullAllowed: a null is read as null.
	NullAllowed Nullability = true
)

// NotNull reports whether the next value is not null, consuming a null.
// A null where it is refused fails with ErrNull.
func (r *JSONReader) NotNull(nullable Nullability) bool {
	if r.err != nil {
		return false
	}
	if r.peek() != 'n' {
		return true
	}
	start := r.off
	if !r.literal("null") {
		r.expected("a value")
		return false
	}
	if !nullable {
		r.failAt(start, runtime.ErrNull, "")
	}
	return false
}

// ObjectStart consumes the '{' of an object, failing on anything else.
func (r *JSONReader) ObjectStart() bool {
	if r.err != nil {
		return false
	}
	if r.peek() != '{' {
		r.expected("an object")
		return false
	}
	r.off++
	r.afterOpen = true
	return true
}

// NextKey reads the next key of the object being read and the ':' after
// it, leaving the offset at its value. It returns false at the closing '}'
// (consumed) and on failure.
func (r *JSONReader) NextKey() bool {
	if r.err != nil {
		return false
	}
	c := r.peek()
	if c == '}' {
		r.endAt = r.off
		r.off++
		r.afterOpen = false
		return false
	}
	if !r.afterOpen {
		if c != ',' {
			r.Fail(runtime.ErrJSONSyntax, fmt.Sprintf("expected ',' or '}' after an object member, found %s", describe(c)))
			return false
		}
		r.off++
		c = r.peek()
	}
	r.afterOpen = false
	if c != '"' {
		r.Fail(runtime.ErrJSONSyntax, fmt.Sprintf("expected an object key, found %s", describe(c)))
		return false
	}
	r.keyAt = r.off
	key, ok := r.str(&r.keyBuf)
	if !ok {
		return false
	}
	r.key = key
	if r.peek() != ':' {
		r.Fail(runtime.ErrJSONSyntax, fmt.Sprintf("expected ':' after key %q", key))
		return false
	}
	r.off++
	return true
}

// Key is the key NextKey read, valid until the next call.
func (r *JSONReader) Key() []byte { return r.key }

// Field enters the value of key, a field the struct defines at every
// version, until Pop: it fails with ErrDuplicateField when seen is already
// set. It sets seen and reports whether the value is to be read.
func (r *JSONReader) Field(seen *bool, key string) bool {
	return r.FieldAt(seen, true, key)
}

// FieldAt is Field for a field the version being read may lack: where
// present is false it fails with ErrFieldVersion.
func (r *JSONReader) FieldAt(seen *bool, present bool, key string) bool {
	if r.err != nil {
		return false
	}
	r.push(key)
	switch {
	case *seen:
		r.failAt(r.keyAt, runtime.ErrDuplicateField, "")
		return false
	case !present:
		r.failAt(r.keyAt, runtime.ErrFieldVersion, fmt.Sprintf("not supported in version %d", r.version))
		return false
	}
	*seen = true
	return true
}

// NotInVersion fails on key, a field the struct defines at none of the
// versions the code was generated for.
func (r *JSONReader) NotInVersion(key string) {
	r.FieldAt(new(bool), false, key)
}

// UnknownKey fails on a key the struct does not define; the key ends the
// error's field path.
func (r *JSONReader) UnknownKey() {
	if r.err == nil {
		r.push(string(r.key))
		r.failAt(r.keyAt, runtime.ErrUnknownField, "")
	}
}

// RecordsSizeKey fails on the key "<field>SizeInBytes" of a records field:
// JSON written with JSONOptions.RecordsSize has lost the records.
func (r *JSONReader) RecordsSizeKey() {
	if r.err == nil {
		r.push(string(r.key))
		r.failAt(r.keyAt, runtime.ErrUnknownField, "records written as their size only cannot be read back")
	}
}

// Require fails with ErrMissingField, naming key, unless given: a field
// mandatory at the version being read must be in the object just read. The
// offset is that of the object's closing '}'.
func (r *JSONReader) Require(given bool, key string) {
	if r.err == nil && !given {
		r.push(key)
		r.failAt(r.endAt, runtime.ErrMissingField, fmt.Sprintf("mandatory in version %d", r.version))
	}
}

// ArrayStart consumes the '[' of an array and returns true; for null it
// returns false, failing with ErrNull where null is refused.
func (r *JSONReader) ArrayStart(nullable Nullability) bool {
	if !r.NotNull(nullable) {
		return false
	}
	if r.peek() != '[' {
		r.expected("an array")
		return false
	}
	r.off++
	r.afterOpen = true
	return true
}

// NextElem moves to the next element of the array being read; it returns
// false at the closing ']' (consumed) and on failure.
func (r *JSONReader) NextElem() bool {
	if r.err != nil {
		return false
	}
	c := r.peek()
	if c == ']' {
		r.off++
		r.afterOpen = false
		return false
	}
	if !r.afterOpen {
		if c != ',' {
			r.Fail(runtime.ErrJSONSyntax, fmt.Sprintf("expected ',' or ']' after an array element, found %s", describe(c)))
			return false
		}
		r.off++
	}
	r.afterOpen = false
	return true
}

// Bool reads true or false.
func (r *JSONReader) Bool() bool {
	if r.err != nil {
		return false
	}
	switch r.peek() {
	case 't':
		if r.literal("true") {
			return true
		}
	case 'f':
		if r.literal("false") {
			return false
		}
	}
	r.expected("a boolean")
	return false
}
