// Package kerrors is Kafka's table of error codes: every code of Kafka 4.0
// as an *Error with Kafka's name, default message and retriable flag.
// ErrorCode turns a response's code into an error for errors.Is:
//
//	if errors.Is(kerrors.ErrorCode(p.ErrorCode), kerrors.NotLeaderOrFollower) { ... }
//
// Each code is a variable named after Kafka's error name in Go's case
// (NotLeaderOrFollower for NOT_LEADER_OR_FOLLOWER); LookupError and
// ErrorByName find an entry by code or name; IsRetriable says whether Kafka
// counts an error as retriable.
package kerrors
