package main

import "context"

// call is one request being served: its version and who sent it.
type call struct {
	ctx        context.Context // ends when the connection or the server closes
	version    int16
	clientID   string
	clientHost string
	rec        *recordTools // the connection's record readers and builders
	// answered counts the bytes the call took from the broker's answer
	// budget, given back once its answer is written; nil: not counted.
	answered *int64
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
