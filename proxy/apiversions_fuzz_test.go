package proxy

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generated"
)

// FuzzClampVersions rewrites arbitrary ApiVersions bodies: never a panic;
// a body the generated decoder reads is rewritten to one it reads too, with
// nothing but the api list and feature levels changed, and rewriting again
// changes nothing.
func FuzzClampVersions(f *testing.F) {
	for v := range int16(5) {
		resp := generated.NewAPIVersionsResponse()
		resp.APIKeys = []generated.APIVersionsResponseAPIVersion{{APIKey: 0, MaxVersion: 9}, {APIKey: 17, MaxVersion: 1}, {APIKey: 999, MaxVersion: 1}}
		resp.SupportedFeatures = []generated.APIVersionsResponseSupportedFeatureKey{{Name: "transaction.version", MinVersion: 1, MaxVersion: 2}}
		resp.FinalizedFeatures = []generated.APIVersionsResponseFinalizedFeatureKey{{Name: "transaction.version", MaxVersionLevel: 2, MinVersionLevel: 2}}
		body, err := resp.AppendTo(nil, v)
		require.NoError(f, err)
		f.Add(body, v)
	}
	vc := newVersionClamp(testRequests, testResponses, nil)
	f.Fuzz(func(t *testing.T, body []byte, version int16) {
		version &= 7
		out, err := vc.rewrite(nil, 1, body, version, false)
		if err != nil {
			return
		}
		in := generated.NewAPIVersionsResponse()
		if n, err := in.Decode(body, version); err != nil || n != len(body) {
			return // the response pump refuses these before the rewrite
		}
		got := generated.NewAPIVersionsResponse()
		n, err := got.Decode(out[8:], version)
		require.NoError(t, err, "the rewritten body reads")
		require.Equal(t, len(out)-8, n)
		require.Equal(t, in.ErrorCode, got.ErrorCode)
		require.Equal(t, in.ThrottleTimeMs, got.ThrottleTimeMs)
		require.Equal(t, in.FinalizedFeaturesEpoch, got.FinalizedFeaturesEpoch)
		require.LessOrEqual(t, len(got.APIKeys), len(in.APIKeys))
		again, err := vc.rewrite(nil, 1, out[8:], version, false)
		require.NoError(t, err)
		require.True(t, bytes.Equal(out, again), "rewriting twice changes the answer")
	})
}
