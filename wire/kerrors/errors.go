package kerrors

import (
	"errors"
	"fmt"
	"sort"
)

// Error is one of Kafka's protocol error codes: the code carried in
// responses, Kafka's name for it, its default message and whether Kafka
// counts it as retriable (its exception extends RetriableException). The
// table holds every code of Kafka 4.0; ErrorCode returns the entry of a code
// as an error, so responses' codes can be tested with errors.Is:
//
//	if errors.Is(kerrors.ErrorCode(p.ErrorCode), kerrors.NotLeaderOrFollower) { ... }
type Error struct {
	Code      int16
	Name      string // such as "NOT_LEADER_OR_FOLLOWER"
	Message   string // Kafka's default message
	Retriable bool
}

// Error is Kafka's name, the code and Kafka's default message.
func (e *Error) Error() string {
	return fmt.Sprintf("%s (kafka error %d): %s", e.Name, e.Code, e.Message)
}

// Is reports whether target is e's table entry. A code missing from the
// table is Kafka's UNKNOWN_SERVER_ERROR as well (Errors.forCode maps it so).
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	if !ok {
		return false
	}
	if t.Code == e.Code {
		return true
	}
	_, known := byCode[e.Code]
	return !known && t == UnknownServerError
}

// ErrorCode returns the error of a response's error code: nil for 0 (NONE),
// the table's *Error for a known code, and for any other code a new *Error
// keeping the code, named UNKNOWN_ERROR_CODE and matching
// UnknownServerError with errors.Is.
func ErrorCode(code int16) error {
	if code == 0 {
		return nil
	}
	if e, ok := byCode[code]; ok {
		return e
	}
	return &Error{Code: code, Name: "UNKNOWN_ERROR_CODE",
		Message: fmt.Sprintf("error code %d is not one of Kafka 4.0's", code)}
}

// LookupError returns the table's entry for a code, if there is one. NONE
// (0) has none.
func LookupError(code int16) (*Error, bool) {
	e, ok := byCode[code]
	return e, ok
}

// ErrorByName returns the table's entry for one of Kafka's error names, such
// as "UNKNOWN_TOPIC_OR_PARTITION".
func ErrorByName(name string) (*Error, bool) {
	e, ok := byName[name]
	return e, ok
}

// Errors lists every error of the table, sorted by code.
func Errors() []*Error {
	out := make([]*Error, 0, len(byCode))
	for _, e := range byCode {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// IsRetriable reports whether err is, or wraps, a Kafka error that Kafka
// counts as retriable.
func IsRetriable(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Retriable
}

var (
	byCode = map[int16]*Error{}
	byName = map[string]*Error{}
)

func init() {
	for _, e := range errorTable {
		byCode[e.Code] = e
		byName[e.Name] = e
	}
}
