package proxy

import (
	"reflect"

	"github.com/kafkagen/kafkagen/runtime"
)

// SetErrorCode sets the top-level ErrorCode field of a generated message,
// which kafkagen names so for a spec's "ErrorCode", and reports whether it
// has one (filters that refuse a request use it to build the answer).
func SetErrorCode(m runtime.APIMessage, code int16) bool {
	f := topLevelField(m, "ErrorCode", reflect.Int16)
	if !f.IsValid() {
		return false
	}
	f.SetInt(int64(code))
	return true
}

// RaiseThrottleTime makes the top-level ThrottleTimeMs field of a
// generated response at least ms, and reports whether it changed it (a
// quota filter's answer keeps the broker's throttle when it is longer).
func RaiseThrottleTime(m runtime.APIMessage, ms int32) bool {
	f := topLevelField(m, "ThrottleTimeMs", reflect.Int32)
	if !f.IsValid() || f.Int() >= int64(ms) {
		return false
	}
	f.SetInt(int64(ms))
	return true
}

// topLevelField is the settable field of a generated message named name,
// of kind kind, or the zero Value.
func topLevelField(m runtime.APIMessage, name string, kind reflect.Kind) reflect.Value {
	v := reflect.ValueOf(m)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return reflect.Value{}
	}
	f := v.Elem().FieldByName(name)
	if !f.IsValid() || f.Kind() != kind || !f.CanSet() {
		return reflect.Value{}
	}
	return f
}
