//go:build corpus

package conformance

import (
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/kafkagen/kafkagen/conformance/gen/clients"
	"github.com/kafkagen/kafkagen/runtime"
)

// plainFetchResponse has the fields of clients.FetchResponse without its
// methods, so that encoding/json marshals it by reflection: the baseline
// the generated JSON code is measured against in the same run.
type plainFetchResponse clients.FetchResponse

// benchFetchResponse is the Java vector of FetchResponse v16 decoded.
func benchFetchResponse(b *testing.B) *clients.FetchResponse {
	for _, v := range loadJavaJSONVectors(b) {
		if v.File == "FetchResponse" && v.Version == 16 {
			src, _ := hex.DecodeString(v.Hex)
			m := clients.NewFetchResponse()
			if _, err := m.Decode(src, 16); err != nil {
				b.Fatal(err)
			}
			return m
		}
	}
	b.Fatal("no FetchResponse v16 vector")
	return nil
}

// BenchmarkJSON compares, on the same FetchResponse, the generated
// AppendJSON and DecodeJSON with encoding/json's reflection on the same Go
// struct (impl=kafkagen against impl=encoding-json; benchstat gives the
// ratio).
func BenchmarkJSON(b *testing.B) {
	m := benchFetchResponse(b)
	text, err := m.AppendJSON(nil, 16, runtime.JSONOptions{})
	if err != nil {
		b.Fatal(err)
	}
	plain := (*plainFetchResponse)(m)
	plainText, err := json.Marshal(plain)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("op=marshal/impl=kafkagen", func(b *testing.B) {
		buf := make([]byte, 0, 2*len(text))
		b.ReportAllocs()
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			buf, _ = m.AppendJSON(buf[:0], 16, runtime.JSONOptions{})
		}
	})
	b.Run("op=marshal/impl=encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(plainText)))
		for b.Loop() {
			_, _ = json.Marshal(plain)
		}
	})
	b.Run("op=unmarshal/impl=kafkagen", func(b *testing.B) {
		out := clients.NewFetchResponse()
		b.ReportAllocs()
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			if err := out.DecodeJSON(text, 16); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("op=unmarshal/impl=encoding-json", func(b *testing.B) {
		var out plainFetchResponse
		b.ReportAllocs()
		b.SetBytes(int64(len(plainText)))
		for b.Loop() {
			out = plainFetchResponse{}
			if err := json.Unmarshal(plainText, &out); err != nil {
				b.Fatal(err)
			}
		}
	})
}
