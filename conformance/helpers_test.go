//go:build corpus

package conformance

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kafkagen/kafkagen/conformance/gen/clients"
	"github.com/kafkagen/kafkagen/conformance/gen/clientstest"
	"github.com/kafkagen/kafkagen/conformance/gen/groupcoordinator"
	"github.com/kafkagen/kafkagen/conformance/gen/metadata"
	"github.com/kafkagen/kafkagen/internal/corpus"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/stretchr/testify/require"
)

// goldenU1 is the Appendix B uuid u1 = Uuid(0x0123456789abcdef, 0xfedcba9876543210).
var goldenU1 = runtime.UUIDFromInts(0x0123456789abcdef, 0xfedcba9876543210)

// goldenDefaults returns a nested struct holding its spec defaults (nested
// generated structs have no constructor, only Reset).
func goldenDefaults[T any, P interface {
	*T
	Reset()
}]() T {
	var v T
	P(&v).Reset()
	return v
}

// goldenNewByName returns a fresh message for a spec name from the generated
// packages the golden vectors use, or nil.
func goldenNewByName(name string) runtime.Message {
	for _, f := range []func(string) runtime.Message{
		clients.NewByName, clientstest.NewByName, groupcoordinator.NewByName, metadata.NewByName,
	} {
		if m := f(name); m != nil {
			return m
		}
	}
	return nil
}

// goldenRow is one line of java-golden.tsv.
//
// A write row (B.1) has five columns: description, version, byte length or
// "-", hex (possibly empty) or "ERROR <exception>: <message>", read-back.
// A read row (B.2) starts with "READ " and has four: description, version,
// input hex, "-> <outcome>".
type goldenRow struct {
	Line    int // 1-based; row n is Vn of docs/protocol.md
	Desc    string
	Version int16
	Read    bool

	// write rows
	Length    int // -1 for "-"
	Hex       string
	ErrClass  string // Java exception class, "" when the write succeeded
	ErrMsg    string // Java exception message
	RoundTrip string

	// read rows
	Input   string
	Outcome string
}

func (r goldenRow) ID() string { return "V" + strconv.Itoa(r.Line) }

// loadGoldenRows reads java-golden.tsv, skipping the test when it is absent.
func loadGoldenRows(t *testing.T) []goldenRow {
	t.Helper()
	path := filepath.Join(corpus.VectorDir(), "java-golden.tsv")
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		t.Skipf("java-golden.tsv not found at %s (set KAFKA_VECTORS_DIR to the kafka-vectors folder)", path)
	}
	require.NoError(t, err)
	defer f.Close()

	var rows []goldenRow
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if text == "" {
			continue
		}
		cols := strings.Split(text, "\t")
		require.GreaterOrEqual(t, len(cols), 4, "java-golden.tsv line %d: %q", line, text)
		v, err := strconv.ParseInt(cols[1], 10, 16)
		require.NoError(t, err, "java-golden.tsv line %d: version", line)
		r := goldenRow{Line: line, Desc: cols[0], Version: int16(v)}
		if strings.HasPrefix(r.Desc, "READ ") {
			require.Len(t, cols, 4, "java-golden.tsv line %d: read row", line)
			r.Read = true
			r.Input = cols[2]
			r.Outcome = cols[3]
		} else {
			if cols[2] == "-" {
				r.Length = -1
			} else {
				r.Length, err = strconv.Atoi(cols[2])
				require.NoError(t, err, "java-golden.tsv line %d: length", line)
			}
			if rest, ok := strings.CutPrefix(cols[3], "ERROR "); ok {
				r.ErrClass, r.ErrMsg, _ = strings.Cut(rest, ": ")
			} else {
				r.Hex = cols[3]
			}
			if len(cols) > 4 {
				r.RoundTrip = cols[4]
			}
		}
		rows = append(rows, r)
	}
	require.NoError(t, sc.Err())
	return rows
}

func goldenHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	require.NoError(t, err, "bad hex %q", s)
	return b
}

var (
	goldenNonDefaultRE = regexp.MustCompile(`^Attempted to write a non-default (\w+) at version (\d+)$`)
	goldenNullReadRE   = regexp.MustCompile(`^non-nullable field (\w+) was serialized as null$`)
	goldenBadTagRE     = regexp.MustCompile(`^Tag (\d+) is not valid for version (\d+)$`)
	goldenReadOKRE     = regexp.MustCompile(`^-> .* remaining=(\d+) \| (?:re-written: ([0-9a-f]*)|re-write ERROR (\w+): (.*))$`)
	goldenReadErrRE    = regexp.MustCompile(`^-> ERROR (\w+): (.*)$`)
	goldenElemIndexRE  = regexp.MustCompile(`\[\d+\]`)
)

// goldenLastField is the last spec field name of a dotted error path, without
// array indexes: "Goats[0].Name" -> "Name".
func goldenLastField(path string) string {
	path = goldenElemIndexRE.ReplaceAllString(path, "")
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[i+1:]
	}
	return path
}

// loadJSONLines reads one JSON object a line of a file of the vectors
// folder, skipping the test when the file is absent.
func loadJSONLines[T any](t testing.TB, file string) []T {
	t.Helper()
	path := filepath.Join(corpus.VectorDir(), file)
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		t.Skipf("SKIP: no %s at %s (set KAFKA_VECTORS_DIR)", file, path)
	}
	require.NoError(t, err)
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var v T
		require.NoError(t, json.Unmarshal(sc.Bytes(), &v), "%s", file)
		out = append(out, v)
	}
	require.NoError(t, sc.Err())
	return out
}
