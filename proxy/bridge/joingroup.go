package bridge

import "reflect"

// joinGroupAdapter turns JoinGroup v0 into v1+: v0 has no rebalance
// timeout, and Kafka used the session timeout for it. v1 means what v2
// does (v2 only adds the throttle time to the answer).
type joinGroupAdapter struct{}

func (joinGroupAdapter) request(c *connBridge, req reflect.Value, from, to int16) (any, error) {
	if from > 0 {
		return nil, nil
	}
	var f fields
	f.setInt(req, "RebalanceTimeoutMs", f.int64(req, "SessionTimeoutMs"))
	return nil, f.err
}

func (joinGroupAdapter) response(*connBridge, reflect.Value, int16, int16, any) error { return nil }
