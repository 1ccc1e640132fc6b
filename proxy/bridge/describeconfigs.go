package bridge

import "reflect"

// configSourceDefault is DescribeConfigs' ConfigSource for a value that is
// the default (DEFAULT_CONFIG).
const configSourceDefault = 5

// describeConfigsAdapter turns DescribeConfigs v0 into v1. v0 answers
// whether each value is the default (IsDefault); v1 answers where the value
// comes from (ConfigSource) instead, and Kafka set v0's flag from it: true
// for DEFAULT_CONFIG. The synonyms v1 may list are dropped (v0 has none).
type describeConfigsAdapter struct{}

func (describeConfigsAdapter) request(*connBridge, reflect.Value, int16, int16) (any, error) {
	return nil, nil
}

func (describeConfigsAdapter) response(c *connBridge, resp reflect.Value, from, to int16, _ any) error {
	if to > 0 {
		return nil
	}
	var f fields
	f.each(resp, "Results", func(r reflect.Value) {
		f.each(r, "Configs", func(cfg reflect.Value) {
			if d := f.get(cfg, "IsDefault"); d.IsValid() {
				d.SetBool(f.int64(cfg, "ConfigSource") == configSourceDefault)
			}
			f.zero(cfg, "Synonyms")
		})
	})
	return f.err
}
