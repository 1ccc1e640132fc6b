//go:build corpus

package conformance

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/kafkagen/kafkagen/conformance/gen/clients"
	"github.com/kafkagen/kafkagen/internal/corpus"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/stretchr/testify/require"
)

// capturesDir holds the request frames real clients sent to the example
// broker: <client>/<step>/<ApiName>-v<version>.bin, header and body without
// the size prefix, written by `go run ./cmd/interop -update-captures` in
// interop/ (the client id of each frame is "<client>-<step>").
var capturesDir = filepath.Join(corpus.ModuleRoot(), "testdata", "captures")

// capture is one captured frame and what its path says about it.
type capture struct {
	Rel      string // path under capturesDir
	ClientID string // "<client>-<step>"
	API      string // "Produce"
	Version  int16
}

// loadCaptures lists the captured frames, sorted by path.
func loadCaptures(t *testing.T) []capture {
	t.Helper()
	var out []capture
	err := filepath.WalkDir(capturesDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(capturesDir, path)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		api, ver, ok := strings.Cut(strings.TrimSuffix(parts[len(parts)-1], ".bin"), "-v")
		v, verr := strconv.ParseInt(ver, 10, 16)
		if len(parts) != 3 || !strings.HasSuffix(rel, ".bin") || !ok || verr != nil {
			return fmt.Errorf("%s: want <client>/<step>/<ApiName>-v<version>.bin", rel)
		}
		out = append(out, capture{Rel: rel, ClientID: parts[0] + "-" + parts[1], API: api, Version: int16(v)})
		return nil
	})
	require.NoError(t, err, "reading %s", capturesDir)
	require.NotEmpty(t, out, "no captured frames in %s", capturesDir)
	sort.Slice(out, func(i, j int) bool { return out[i].Rel < out[j].Rel })
	return out
}

// captureTally counts what the replay checked.
type captureTally struct {
	frames, clients, blobs, exact, readBack int
	pairs                                   map[string]bool
}

// TestCaptures replays every captured frame with no network: the header
// (wire) and the body (the generated clients package) decode and re-encode
// to the same bytes, and the record batches of Produce requests are read and
// written again with records: uncompressed batches byte for byte, compressed
// ones re-built with the same codec and read back to the same batch and
// records (compressed bytes depend on each client's compression library).
func TestCaptures(t *testing.T) {
	caps := loadCaptures(t)
	tally := captureTally{pairs: map[string]bool{}}
	clientsSeen := map[string]bool{}
	dec := wire.NewRequestDecoder(clients.NewRequest, false, nil)
	for _, c := range caps {
		t.Run(c.Rel, func(t *testing.T) {
			frame, err := os.ReadFile(filepath.Join(capturesDir, c.Rel))
			require.NoError(t, err)
			var req wire.Request
			require.NoError(t, dec.Decode(frame, &req), "decoding %s", c.Rel)
			require.Equal(t, c.API+"Request", req.Body.SpecName(), "api key %d", req.Header.APIKey)
			require.Equal(t, c.Version, req.Header.APIVersion)
			require.Equal(t, c.ClientID, req.Header.ClientID.Value, "client id in the header")

			out, err := req.Header.AppendTo(nil, req.HeaderVersion)
			require.NoError(t, err)
			require.Equal(t, req.BodyOffset, len(out), "re-encoded header v%d length", req.HeaderVersion)
			out, err = req.Body.AppendTo(out, c.Version)
			require.NoError(t, err)
			requireSameFrame(t, frame, out, req.BodyOffset)

			if produce, ok := req.Body.(*clients.ProduceRequest); ok {
				for _, topic := range produce.TopicData {
					for _, p := range topic.PartitionData {
						where := fmt.Sprintf("%s partition %d", topic.Name, p.Index)
						exact, readBack := replayRecords(t, where, p.Records)
						tally.blobs++
						tally.exact += exact
						tally.readBack += readBack
					}
				}
			}
			tally.frames++
			tally.pairs[fmt.Sprintf("%s v%d", c.API, c.Version)] = true
			clientsSeen[strings.SplitN(c.Rel, string(filepath.Separator), 2)[0]] = true
		})
	}
	fmt.Printf("captures: clients=%d frames=%d api-versions=%d record-blobs=%d batches-uncompressed=%d batches-compressed=%d\n",
		len(clientsSeen), tally.frames, len(tally.pairs), tally.blobs, tally.exact, tally.readBack)
}

// requireSameFrame fails with the first differing byte and the bytes
// around it.
func requireSameFrame(t *testing.T, want, got []byte, bodyOffset int) {
	t.Helper()
	if bytes.Equal(want, got) {
		return
	}
	at := 0
	for at < len(want) && at < len(got) && want[at] == got[at] {
		at++
	}
	lo := max(at-16, 0)
	t.Fatalf("re-encoded frame differs at byte %d (body starts at %d; %d bytes captured, %d re-encoded)\n captured:   %x\n re-encoded: %x",
		at, bodyOffset, len(want), len(got), want[lo:min(at+16, len(want))], got[lo:min(at+16, len(got))])
}
