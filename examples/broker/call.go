package main

import "context"

// call is one request being served: its version and who sent it.
type call struct {
	ctx        context.Context // ends when the connection or the server closes
	version    int16
	clientID   string
	clientHost string
	rec        *recordTools // the connection's record readers and builders
	// answer holds what the call's answer took from the server's answer
	// budget, given back once it is written; nil: not counted.
	answer *answerHold
}

// defaults returns a T holding its spec defaults (the generated Reset), for
// building response elements whose defaults are not Go's zero values.
func defaults[T any, P interface {
	*T
	Reset()
}]() T {
	var v T
	P(&v).Reset()
	return v
}
