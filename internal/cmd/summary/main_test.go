package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// corpusLog and kmsgLog are the lines of the two logs summary reads, as the
// corpus tests and kmsgdiff print them.
const corpusLog = `=== RUN   TestCorpusRoundTrip
corpus round trip: pairs=783 messages=46980 mismatches=0
transcode: checked=77360 mismatches=0
json java vectors: vectors=783 equal=783 identical-bytes=700 java-roundtrips=586
json round trip: pairs=783 messages=47763 mismatches=0
dump: requests=300 responses=354 mismatches=0
captures: frames=649 mismatches=0
visitors: rewritten-pairs=712 messages=15660 mismatches=0
tables vs printed: messages=2022 prefixes=50332 mutations=22796 encodes=176344 refused=74763 mismatches=0
`

const kmsgLog = `kmsg: excluded FetchRequest v12-16 kmsg->ours: pairs=5 checks=500 deviations=293 (reason)
kmsg: pairs=638 messages=129000 excluded-pairs=16 removed-apis=0 mismatches=0
`

const java411Line = "java-4.1.1: vectors=1172 read=1135 java-read=1135 refused=37 java-refused=37 json=1135 json-readbacks=794 records-placeholders=72 mismatches=0\n"

const kmsg411Lines = `kmsg-4.1.1: excluded ShareFetchResponse v1-1 kmsg->ours: pairs=1 checks=100 deviations=20 (reason)
kmsg-4.1.1: pairs=566 messages=114800 excluded-pairs=16 removed-apis=4 mismatches=0
kmsg-4.1.1-records: records=8 pairs=17 messages=3400 mismatches=0
`

const base = "conformance: pairs=783 messages=46980 transcodes=77360 kmsg-pairs=638 kmsg-messages=129000 kmsg-excluded-pairs=16 " +
	"json-vectors=783/783 json-roundtrips=47763 dump-frames=654 captured-frames=649 visitor-pairs=712 visitor-messages=15660 tables-vs-printed=2022/22796"

func TestSummary(t *testing.T) {
	tests := []struct {
		name       string
		k411       bool
		corpus     string
		kmsg       string
		wantCode   int
		wantOut    string
		wantStderr string
	}{
		{name: "without 4.1.1", corpus: corpusLog, kmsg: kmsgLog,
			wantOut: base + " k411=skipped mismatches=0\n"},
		{name: "with 4.1.1", k411: true, corpus: corpusLog + java411Line, kmsg: kmsgLog + kmsg411Lines,
			wantOut: base + " java-4.1.1=1135/1135 java-4.1.1-refused=37/37 java-4.1.1-json=1135/1135 kmsg-4.1.1-pairs=566" +
				" kmsg-4.1.1-messages=114800 kmsg-4.1.1-excluded-pairs=16 kmsg-4.1.1-record-pairs=17 mismatches=0\n"},
		{name: "4.1.1 asked, records line missing", k411: true, corpus: corpusLog + java411Line,
			kmsg: kmsgLog + strings.SplitAfter(kmsg411Lines, "\n")[1], wantCode: 1,
			wantStderr: `summary: no "pairs" count in the "kmsg-4.1.1-records" line of the logs`},
		{name: "a Java 4.1.1 message not read", k411: true,
			corpus: corpusLog + strings.Replace(java411Line, "read=1135", "read=1134", 1), kmsg: kmsgLog + kmsg411Lines,
			wantCode: 1, wantOut: "java-4.1.1=1134/1135"},
		{name: "a 4.1.1 kmsg mismatch", k411: true, corpus: corpusLog + java411Line,
			kmsg:     kmsgLog + strings.Replace(kmsg411Lines, "removed-apis=4 mismatches=0", "removed-apis=4 mismatches=3", 1),
			wantCode: 1, wantOut: " mismatches=3\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			corpus, kmsg := filepath.Join(dir, "corpus.log"), filepath.Join(dir, "kmsg.log")
			require.NoError(t, os.WriteFile(corpus, []byte(tt.corpus), 0o644))
			require.NoError(t, os.WriteFile(kmsg, []byte(tt.kmsg), 0o644))
			args := []string{corpus, kmsg}
			if tt.k411 {
				args = append([]string{"-k411"}, args...)
			}
			var stdout, stderr bytes.Buffer
			code := run(args, &stdout, &stderr)
			assert.Equal(t, tt.wantCode, code, "stderr: %s", stderr.String())
			if tt.wantCode == 0 {
				assert.Equal(t, tt.wantOut, stdout.String())
			} else {
				assert.Contains(t, stdout.String(), tt.wantOut)
			}
			assert.Contains(t, stderr.String(), tt.wantStderr)
		})
	}
}
