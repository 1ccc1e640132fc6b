package proxy

import (
	"fmt"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// AllowList is a filter that serves only the apis it lists: the others are
// left out of ApiVersions answers, and a request for one is refused with an
// error answer, the response of its api holding the error code, where the
// response has a top-level error code (as Heartbeat, JoinGroup or
// InitProducerId do); Kafka's answer for the rest names the error per
// topic or resource, which generic code cannot build, so ErrorResponse may
// build it with typed code; without, the connection is closed with the
// error, as Kafka closes it for an api it does not serve.
type AllowList struct {
	allowed     map[int16]bool
	newResponse func(apiKey int16) runtime.APIMessage
	// ErrorCode is the error refused requests get (by default
	// CLUSTER_AUTHORIZATION_FAILED, what Kafka answers an operation its
	// authorizer denies).
	ErrorCode int16
	// ErrorResponse, when set, builds the answer to a refused request, or
	// returns nil to leave it to the generic answer.
	ErrorResponse func(req runtime.APIMessage, version int16, code int16) runtime.APIMessage
}

// NewAllowList serves the apis of keys (and ApiVersions, which clients need
// to start), answering the others with responses made by newResponse, a
// generated package's NewResponse.
func NewAllowList(keys []int16, newResponse func(apiKey int16) runtime.APIMessage) *AllowList {
	a := &AllowList{allowed: map[int16]bool{generated.APIKeyAPIVersions: true}, newResponse: newResponse, ErrorCode: kerrors.ClusterAuthorizationFailed.Code}
	for _, k := range keys {
		a.allowed[k] = true
	}
	return a
}

// Wants the requests it refuses.
func (a *AllowList) Wants(key, _ int16) (requests, responses bool) { return !a.allowed[key], false }

// LimitVersions leaves refused apis out of ApiVersions answers.
func (a *AllowList) LimitVersions(key, lo, hi int16) (int16, int16, bool) {
	return lo, hi, a.allowed[key]
}

// Request answers a refused request with its api's error, or closes the
// connection when there is no generic way to say it.
func (a *AllowList) Request(x *Exchange) error {
	key, version := x.Header.APIKey, x.Header.APIVersion
	if a.ErrorResponse != nil {
		if resp := a.ErrorResponse(x.Request, version, a.ErrorCode); resp != nil {
			x.Answer(resp)
			return nil
		}
	}
	resp := a.newResponse(key)
	if resp != nil && SetErrorCode(resp, a.ErrorCode) {
		x.Answer(resp)
		return nil
	}
	return fmt.Errorf("api key %d is not allowed, and its response has no top-level error code to say so: %w", key, kerrors.ErrorCode(a.ErrorCode))
}
