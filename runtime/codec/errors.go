package codec

import (
	"fmt"

	"github.com/kafkagen/kafkagen/runtime"
)

// For generated code: building the *Error of a failed encode.

// EncodeError builds the error of a failed encode of field (a spec field
// name) of a struct; enclosing structs prefix their field with Within.
//
//go:noinline
func EncodeError(field string, err error, detail string) error {
	return &runtime.Error{Op: "encode", Field: field, Offset: -1, Err: err, Detail: detail}
}

// NonDefaultError is Java's "Attempted to write a non-default X at version V".
//
//go:noinline
func NonDefaultError(field string, version int16) error {
	return AbsentFieldError(field, version, "")
}

// AbsentFieldError is NonDefaultError followed by fix, which says, in the
// names of the Go code, at which versions the field exists and which field
// replaces it at the others ("GroupID has versions 0-7; from v8 see
// Groups"), so that the error names what to write instead.
//
//go:noinline
func AbsentFieldError(field string, version int16, fix string) error {
	detail := fmt.Sprintf("attempted to write a non-default %s at version %d", field, version)
	if fix != "" {
		detail += ": " + fix
	}
	return EncodeError(field, runtime.ErrNonDefault, detail)
}

// StringTooLongError is the error of a string over MaxStringLen bytes
// written in field.
//
//go:noinline
func StringTooLongError(field string) error { return EncodeError(field, runtime.ErrStringTooLong, "") }

// TaggedFieldsError is the error of unknown tagged fields set in a struct
// written at a version without tag sections.
//
//go:noinline
func TaggedFieldsError() error { return EncodeError("", runtime.ErrTaggedFields, "") }

// Within prefixes the field path of err with the enclosing field name.
//
//go:noinline
func Within(err error, field string) error {
	if e, ok := err.(*runtime.Error); ok {
		if e.Field == "" {
			e.Field = field
		} else {
			e.Field = field + "." + e.Field
		}
	}
	return err
}

// WithinElem prefixes the field path of err with element i of an array field.
//
//go:noinline
func WithinElem(err error, field string, i int) error {
	return Within(err, fmt.Sprintf("%s[%d]", field, i))
}

// Finish fills in the message and version of an error from generated code.
//
//go:noinline
func Finish(err error, message string, version int16) error {
	if e, ok := err.(*runtime.Error); ok {
		e.Message = message
		e.Version = version
	}
	return err
}

// UnsupportedVersion is the error for a version outside min..max.
//
//go:noinline
func UnsupportedVersion(op, message string, version, min, max int16) error {
	off := -1
	if op == "decode" {
		off = 0
	}
	return &runtime.Error{Op: op, Message: message, Version: version, Offset: off, Err: runtime.ErrUnsupportedVersion,
		Detail: fmt.Sprintf("valid versions are %d to %d", min, max)}
}
