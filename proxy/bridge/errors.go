package bridge

import "reflect"

// Kafka's error codes the bridge names.
const (
	codeNone                      int16 = 0
	codeCorruptMessage            int16 = 2
	codeNotLeaderOrFollower       int16 = 6
	codeKafkaStorageError         int16 = 56
	codeInvalidRecord             int16 = 87
	codeUnsupportedCompressionTyp int16 = 76
)

// errorRule replaces an error code that clients up to version maxVersion
// of an api do not know with the one Kafka answered them instead.
type errorRule struct {
	maxVersion int16
	from, to   int16
}

// errorRules are Kafka 3.9's own mappings (KafkaApis) for the versions the
// bridge translates: a Fetch up to v5 got NOT_LEADER_OR_FOLLOWER for a log
// directory offline (KAFKA_STORAGE_ERROR). Produce, the other api whose
// error set grew within the translated versions, had none.
var errorRules = map[int16][]errorRule{
	apiFetch: {{maxVersion: 5, from: codeKafkaStorageError, to: codeNotLeaderOrFollower}},
}

// mapErrors rewrites every ErrorCode field of resp (at any depth) by the
// rules of key for the client's version.
func mapErrors(key int16, resp reflect.Value, clientVersion int16) {
	var rules []errorRule
	for _, r := range errorRules[key] {
		if clientVersion <= r.maxVersion {
			rules = append(rules, r)
		}
	}
	if len(rules) > 0 {
		walkErrorCodes(resp, rules)
	}
}

// walkErrorCodes applies rules to the int16 ErrorCode fields in v.
func walkErrorCodes(v reflect.Value, rules []errorRule) {
	switch v.Kind() {
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := v.Field(i)
			if t.Field(i).Name == "ErrorCode" && f.Kind() == reflect.Int16 {
				for _, r := range rules {
					if f.Int() == int64(r.from) {
						f.SetInt(int64(r.to))
					}
				}
				continue
			}
			walkErrorCodes(f, rules)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() != reflect.Struct {
			return
		}
		for i := range v.Len() {
			walkErrorCodes(v.Index(i), rules)
		}
	}
}
