package schema

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRulesFor(t *testing.T) {
	tests := []struct {
		release string
		want    Rules
		err     string
	}{
		{release: "", want: Current},
		{release: "2.2", want: Release2x},
		{release: "2.2.0", want: Release2x},
		{release: "2.4.1", want: Release2x},
		{release: "2.8", want: Release2x},
		{release: "3.0", want: Current},
		{release: "3.9.1", want: Current},
		{release: "4.2.0-rc1", want: Current},
		{release: "2.8.0-rc2", want: Release2x},
		{release: "4.0", want: Current},
		{release: "10.1", want: Current},
		{release: "2.1", err: "release 2.1 has no JSON message specs: Kafka ships them from 2.2"},
		{release: "1.1.1", err: "release 1.1.1 has no JSON message specs: Kafka ships them from 2.2"},
		{release: "2", err: `release "2" is not MAJOR.MINOR or MAJOR.MINOR.PATCH (such as 2.8, 3.9.1 or 4.2.0-rc1)`},
		{release: "2.x", err: `release "2.x" is not MAJOR.MINOR or MAJOR.MINOR.PATCH (such as 2.8, 3.9.1 or 4.2.0-rc1)`},
		{release: "2.8.0.1", err: `release "2.8.0.1" is not MAJOR.MINOR or MAJOR.MINOR.PATCH (such as 2.8, 3.9.1 or 4.2.0-rc1)`},
		{release: "v2.8", err: `release "v2.8" is not MAJOR.MINOR or MAJOR.MINOR.PATCH (such as 2.8, 3.9.1 or 4.2.0-rc1)`},
		{release: "2.+8", err: `release "2.+8" is not MAJOR.MINOR or MAJOR.MINOR.PATCH (such as 2.8, 3.9.1 or 4.2.0-rc1)`},
		{release: "2.08", err: `release "2.08" is not MAJOR.MINOR or MAJOR.MINOR.PATCH (such as 2.8, 3.9.1 or 4.2.0-rc1)`},
	}
	for _, tt := range tests {
		t.Run(tt.release, func(t *testing.T) {
			got, err := RulesFor(tt.release)
			if tt.err != "" {
				require.EqualError(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestRulesLoad: what each rule set makes of a spec without
// flexibleVersions, and of text after the object.
func TestRulesLoad(t *testing.T) {
	const body = `{"type": "data", "name": "OldData", "validVersions": "0-2",
 "fields": [{"name": "A", "type": "string", "versions": "0+"}]}`
	tests := []struct {
		name  string
		rules Rules
		src   string
		diags string // "" when the spec loads
	}{
		{"current: flexibleVersions required", Current, body,
			"x.json:1:1: OldData: You must specify a value for flexibleVersions. Please use 0+ for all new messages."},
		{"current: trailing text refused", Current, body + "\n]\n}",
			"x.json:3:1: invalid JSON: unexpected character ']' after the end of the JSON document"},
		{"2.x: missing flexibleVersions is none", Release2x, body, ""},
		{"2.x: trailing text ignored", Release2x, body + "\n]\n}", ""},
		{"2.x: other rules unchanged", Release2x, `{"type": "data", "name": "OldData", "validVersions": "0+", "fields": []}`,
			`x.json:1:54: OldData: Message OldData does not specify a maximum version.`},
		{"2.x: a given flexibleVersions is still checked", Release2x, `{"type": "data", "name": "OldData", "validVersions": "0", "flexibleVersions": "1", "fields": []}`,
			`x.json:1:79: OldData: Message OldData specifies flexibleVersions 1, which is not open-ended. flexibleVersions must be either none, or an open-ended range (that ends with a plus sign).`},
		{"2.x: syntax errors inside the object are still errors", Release2x, `{"type": "data" "name": "OldData"}`,
			`x.json:1:17: invalid JSON: unexpected character '"': expected ',' or '}'`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec, err := tt.rules.Load("x.json", []byte(tt.src))
			if tt.diags != "" {
				require.EqualError(t, err, tt.diags)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, None, spec.FlexibleVersions)
			assert.Equal(t, Versions{0, 2}, spec.ValidVersions)
		})
	}
}
