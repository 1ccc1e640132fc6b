package compat

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generator/schema"
)

func TestShiftVersions(t *testing.T) {
	tests := []struct {
		in   schema.Versions
		k    int16
		want schema.Versions
	}{
		{schema.Versions{Lo: 3, Hi: 3}, 3, schema.Versions{Lo: 0, Hi: 0}},
		{schema.Versions{Lo: 0, Hi: 1}, 1, schema.Versions{Lo: 0, Hi: 0}},                       // version 0 was another record type
		{schema.Versions{Lo: 2, Hi: schema.NoMax}, 5, schema.Versions{Lo: 0, Hi: schema.NoMax}}, // "2+" stays open
		{schema.Versions{Lo: 0, Hi: 2}, 3, schema.None},                                         // all below the record type
		{schema.None, 3, schema.None},
		{schema.Versions{Lo: 4, Hi: 6}, 0, schema.Versions{Lo: 4, Hi: 6}},
	}
	for _, tt := range tests {
		got := shiftVersions(tt.in, tt.k)
		if tt.want.Empty() {
			assert.True(t, got.Empty(), "%s shifted by %d: %s", tt.in, tt.k, got)
			continue
		}
		assert.Equal(t, tt.want, got, "%s shifted by %d", tt.in, tt.k)
	}
}

// earlyAccess reads a response's flag from the request beside it only when
// the request is marked and ends at the same version.
func TestEarlyAccessOfResponses(t *testing.T) {
	const request = `{"apiKey": 903, "type": "request", "name": "PeekRequest", "validVersions": "0-%s",
  "flexibleVersions": "0+", %s "fields": []}`
	const response = `{"apiKey": 903, "type": "response", "name": "PeekResponse", "validVersions": "0-2",
  "flexibleVersions": "0+", "fields": []}`
	tests := []struct {
		name       string
		requestMax string
		flag       string
		noRequest  bool
		want       schema.Versions
	}{
		{"request unstable", "2", `"latestVersionUnstable": true,`, false, schema.Versions{Lo: 2, Hi: 2}},
		{"request stable", "2", "", false, schema.None},
		{"request ends elsewhere", "3", `"latestVersionUnstable": true,`, false, schema.None},
		{"no request", "", "", true, schema.None},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if !tt.noRequest {
				src := []byte(fmt.Sprintf(request, tt.requestMax, tt.flag))
				require.NoError(t, os.WriteFile(filepath.Join(dir, "PeekRequest.json"), src, 0o644))
			}
			path := filepath.Join(dir, "PeekResponse.json")
			require.NoError(t, os.WriteFile(path, []byte(response), 0o644))
			spec, err := schema.Current.LoadFile(path)
			require.NoError(t, err)
			got, err := earlyAccess(spec, schema.Current)
			require.NoError(t, err)
			if tt.want.Empty() {
				assert.True(t, got.Empty(), "got %s", got)
				return
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// Only a // comment marks a spec early access, not the words in an about.
func TestPreviewMarkerInComments(t *testing.T) {
	assert.True(t, commentSays([]byte("// x\n  // KIP-1 is in development. This schema is "+previewMarker+".\n{}"), previewMarker))
	assert.False(t, commentSays([]byte(`{"about": "`+previewMarker+`"}`), previewMarker))
}
