//go:build corpus

package conformance

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/conformance/gen/clients"
	"github.com/kafkagen/kafkagen/dynamic"
	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/internal/corpus"
	"github.com/kafkagen/kafkagen/internal/wiregen"
	"github.com/kafkagen/kafkagen/runtime"
)

// dynamicSamples is how many random messages per (spec, version) pair the
// interpreter is compared with generated code on.
const dynamicSamples = 20

// dynMessages caches each spec's interpreter (its plan is built once).
var dynMessages = map[*schema.Spec]*dynamic.Message{}

// dynMessage is spec ready for the run-time interpreter.
func dynMessage(spec *schema.Spec) *dynamic.Message {
	m, ok := dynMessages[spec]
	if !ok {
		m = dynamic.NewMessage(spec)
		dynMessages[spec] = m
	}
	return m
}

// TestDynamicMatchesGenerated: the run-time interpreter (package dynamic,
// behind kafkagen dump) reads every Java vector and random messages of every
// (spec, version) pair of the corpus exactly as the generated packages do:
// the same bytes consumed, the same JSON byte for byte (lossless and
// request-log forms), and every strict prefix of the Java vectors refused
// by both with the same error.
func TestDynamicMatchesGenerated(t *testing.T) {
	specs, pkgOf := corpusSpecs(t)
	byName := map[string]*schema.Spec{}
	for _, s := range specs {
		byName[s.Name] = s
	}
	compare := func(spec *schema.Spec, src []byte, v int16) error {
		m := newJSON(t, pkgOf[spec], spec.Name)
		if _, err := m.Decode(src, v); err != nil {
			return fmt.Errorf("generated Decode: %w", err)
		}
		dm := dynMessage(spec)
		st, n, err := dm.Decode(src, v)
		if err != nil || n != len(src) {
			return fmt.Errorf("dynamic Decode: %d of %d bytes, %v", n, len(src), err)
		}
		for _, opts := range []runtime.JSONOptions{{}, runtime.JSONRequestLog} {
			want, err := m.AppendJSON(nil, v, opts)
			if err != nil {
				return err
			}
			got, err := dm.AppendJSON(nil, st, v, dynamic.Options{JSONOptions: opts})
			if err != nil || !bytes.Equal(got, want) {
				return fmt.Errorf("JSON differs (%v)\n got %s\nwant %s", err, got, want)
			}
		}
		return nil
	}
	messages, prefixes, sameErrors := 0, 0, 0
	for _, spec := range specs {
		for _, v := range wiregen.Versions(spec) {
			rng := rand.New(rand.NewPCG(uint64(v)+2, hash(spec.Name)))
			for i := 0; i < dynamicSamples; i++ {
				src := wiregen.Encode(spec, v, rng, wiregen.Options{UnknownTags: i%3 == 1, LongStrings: i%10 == 9, MaxArray: 1 + i%4})
				require.NoError(t, compare(spec, src, v), "%s v%d sample %d", spec.Name, v, i)
				messages++
			}
		}
	}
	names := specNamesByFile(t)
	for _, vec := range loadJavaVectors(t) {
		spec := byName[names[vec.File]]
		src, _ := hex.DecodeString(vec.Hex)
		require.NoError(t, compare(spec, src, vec.Version), "Java vector %s v%d", spec.Name, vec.Version)
		messages++
		m := pkgOf[spec].newByName(spec.Name)
		for cut := range src {
			_, genErr := m.Decode(src[:cut], vec.Version)
			_, _, dynErr := dynMessage(spec).Decode(src[:cut], vec.Version)
			require.Error(t, genErr)
			require.Error(t, dynErr, "%s v%d: dynamic accepts a %d-byte prefix", spec.Name, vec.Version, cut)
			var ge, de *runtime.Error
			require.True(t, errors.As(genErr, &ge) && errors.As(dynErr, &de))
			if ge.Error() == de.Error() {
				sameErrors++
			}
			prefixes++
		}
	}
	t.Logf("dynamic: %d messages read and printed as generated code does; %d Java prefixes refused by both, %d with the same error text", messages, prefixes, sameErrors)
	fmt.Printf("dynamic vs generated: messages=%d prefixes=%d same-error-text=%d mismatches=0\n", messages, prefixes, sameErrors)
}

// buildKafkagen builds the command once per test binary.
func buildKafkagen(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "kafkagen")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/kafkagen")
	cmd.Dir = corpus.ModuleRoot()
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go build ./cmd/kafkagen: %s", out)
	return bin
}

// frameStreams builds, from the Java vectors of the clients package, a
// stream of size-prefixed request frames (headers written by the generated
// RequestHeader) and the matching stream of response frames with the same
// correlation ids; want holds, per correlation id, the header and message
// JSON the generated code writes for each.
func frameStreams(t *testing.T) (requests, responses []byte, want map[string][2]string) {
	names := specNamesByFile(t)
	want = map[string][2]string{}
	corr := map[[2]int]int32{}
	var next int32
	frame := func(header runtime.JSONMessage, hv int16, body runtime.JSONMessage, v int16) ([]byte, string) {
		h, err := header.AppendTo(nil, hv)
		require.NoError(t, err)
		b, err := body.AppendTo(nil, v)
		require.NoError(t, err)
		hj, err := header.AppendJSON(nil, hv, runtime.JSONOptions{})
		require.NoError(t, err)
		bj, err := body.AppendJSON(nil, v, runtime.JSONOptions{})
		require.NoError(t, err)
		out := binary.BigEndian.AppendUint32(nil, uint32(len(h)+len(b)))
		out = append(append(out, h...), b...)
		return out, string(hj) + "\n" + string(bj)
	}
	for _, vec := range loadJavaVectors(t) {
		if packageOf(vec) != "clients" || (vec.Type != "request" && vec.Type != "response") {
			continue
		}
		src, _ := hex.DecodeString(vec.Hex)
		m := clients.NewByName(names[vec.File]).(runtime.APIMessage)
		_, err := m.Decode(src, vec.Version)
		require.NoError(t, err)
		key := [2]int{int(vec.APIKey), int(vec.Version)}
		if vec.Type == "request" {
			corr[key] = next
			next++
			h := clients.NewRequestHeader()
			h.RequestAPIKey, h.RequestAPIVersion, h.CorrelationID = int16(vec.APIKey), vec.Version, corr[key]
			h.ClientID = runtime.NewNullString("dump-test")
			f, j := frame(h, m.HeaderVersion(vec.Version), m.(runtime.JSONMessage), vec.Version)
			requests = append(requests, f...)
			want[fmt.Sprintf("request %d", corr[key])] = [2]string(strings.SplitN(j, "\n", 2))
			continue
		}
		c, ok := corr[key]
		require.True(t, ok, "the request vectors precede the responses (file order)")
		h := clients.NewResponseHeader()
		h.CorrelationID = c
		f, j := frame(h, m.HeaderVersion(vec.Version), m.(runtime.JSONMessage), vec.Version)
		responses = append(responses, f...)
		want[fmt.Sprintf("response %d", c)] = [2]string(strings.SplitN(j, "\n", 2))
	}
	return requests, responses, want
}

// dumpOutput is one line kafkagen dump prints.
type dumpOutput struct {
	Name           string          `json:"name"`
	Version        int16           `json:"version"`
	RequestHeader  json.RawMessage `json:"requestHeader"`
	Request        json.RawMessage `json:"request"`
	ResponseHeader json.RawMessage `json:"responseHeader"`
	Response       json.RawMessage `json:"response"`
}

// runDump runs kafkagen dump with stdin and returns stdout, stderr and the
// exit status.
func runDump(t *testing.T, bin string, stdin []byte, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"dump"}, args...)...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return stdout.String(), stderr.String(), code
}

// TestDumpCommand runs kafkagen dump as a process over a stream of every
// request vector of the clients package, then over the responses paired by
// correlation id: each frame's header and message print exactly as the
// generated AppendJSON writes them. A bad frame is reported with its
// position and the next one is still read.
func TestDumpCommand(t *testing.T) {
	if !corpus.Available() {
		t.Skipf("SKIP: no Kafka spec corpus at %s (set KAFKA_SPEC_DIR)", corpus.SpecDir())
	}
	bin := buildKafkagen(t)
	specDir := filepath.Join(corpus.SpecDir(), corpus.Dirs[0].Path)
	requests, responses, want := frameStreams(t)
	dir := t.TempDir()
	reqFile := filepath.Join(dir, "requests.bin")
	require.NoError(t, os.WriteFile(reqFile, requests, 0o644))

	check := func(out string, side string) int {
		n := 0
		sc := bufio.NewScanner(strings.NewReader(out))
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var o dumpOutput
			require.NoError(t, json.Unmarshal(sc.Bytes(), &o), sc.Text())
			header, body := o.RequestHeader, o.Request
			if side == "response" {
				header, body = o.ResponseHeader, o.Response
			}
			var h struct{ CorrelationID int32 }
			require.NoError(t, json.Unmarshal(header, &h))
			w, ok := want[fmt.Sprintf("%s %d", side, h.CorrelationID)]
			require.True(t, ok, "no %s with correlation id %d", side, h.CorrelationID)
			assert.Equal(t, w[0], string(header), "%s %s v%d header", side, o.Name, o.Version)
			assert.Equal(t, w[1], string(body), "%s %s v%d", side, o.Name, o.Version)
			n++
		}
		return n
	}
	stdout, stderr, code := runDump(t, bin, requests, "-in", specDir, "-records", "base64")
	require.Equal(t, 0, code, stderr)
	nreq := check(stdout, "request")
	stdout, stderr, code = runDump(t, bin, responses, "-in", specDir, "-records", "base64", "-requests", reqFile)
	require.Equal(t, 0, code, stderr)
	nresp := check(stdout, "response")
	require.Equal(t, len(want), nreq+nresp)
	t.Logf("kafkagen dump: %d request and %d response frames print as the generated code writes them", nreq, nresp)
	fmt.Printf("dump: requests=%d responses=%d mismatches=0\n", nreq, nresp)

	// The same stream with its second frame cut short by one byte (its
	// size prefix adjusted): the frame is reported, the others printed.
	first := 4 + int(binary.BigEndian.Uint32(requests))
	second := 4 + int(binary.BigEndian.Uint32(requests[first:]))
	bad := append([]byte(nil), requests[:first+second-1]...)
	binary.BigEndian.PutUint32(bad[first:], uint32(second-5))
	bad = append(bad, requests[first+second:]...)
	stdout, stderr, code = runDump(t, bin, bad, "-in", specDir, "-records", "base64")
	assert.Equal(t, 1, code)
	assert.Equal(t, nreq-1, strings.Count(stdout, "\n"))
	assert.Regexp(t, `^kafkagen dump: stdin: frame 1 at byte `+fmt.Sprint(first)+`: kafka decode AddOffsetsToTxnRequest\.GroupId v1 at byte \d+: short buffer: need \d+ bytes, have \d+\n$`, stderr)
}

// TestDumpRecordsAndModes: records fields print as their batches (a Java
// record set), one frame per file, responses by -api-key and -version, and
// misuse exits 2.
func TestDumpRecordsAndModes(t *testing.T) {
	if !corpus.Available() {
		t.Skipf("SKIP: no Kafka spec corpus at %s (set KAFKA_SPEC_DIR)", corpus.SpecDir())
	}
	bin := buildKafkagen(t)
	specDir := filepath.Join(corpus.SpecDir(), corpus.Dirs[0].Path)
	set0, err := hex.DecodeString("0000000000000000000000a9ffffffff022b2626bb0000000000000000018bf4208b630000018bf4208b63ffffffffffffffffffffffffffff00000001ec010000001a636f7264206261746368206f66c401bf85d83b02a71dd183804db252badfc192ba6a8a9bd0f0bf07388a1104d59ebf30eb6af66242a51f8fe4823623b0c9e2393801476cf28e100795d65958834aa679714f7b6be1c4943a0b1d55b70fcdfca191edc4527e3530aa804a3000e67f7239c100")
	require.NoError(t, err)
	p := clients.NewProduceRequest()
	p.Acks, p.TimeoutMs = -1, 30000
	p.TopicData = []clients.ProduceRequestTopicProduceData{{Name: "t", PartitionData: []clients.ProduceRequestPartitionProduceData{{Index: 0, Records: set0}}}}
	h := clients.NewRequestHeader()
	h.RequestAPIKey, h.RequestAPIVersion, h.CorrelationID = 0, 9, 42
	frame, err := h.AppendTo(nil, 2)
	require.NoError(t, err)
	frame, err = p.AppendTo(frame, 9)
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "produce.bin")
	require.NoError(t, os.WriteFile(file, frame, 0o644))

	stdout, stderr, code := runDump(t, bin, nil, "-in", specDir, file)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, `{"name":"ProduceRequest","version":9,"requestHeader":{"requestApiKey":0,"requestApiVersion":9,"correlationId":42,"clientId":""},`+
		`"request":{"transactionalId":null,"acks":-1,"timeoutMs":30000,"topicData":[{"name":"t","partitionData":[{"index":0,"records":{"batches":[`+
		`{"magic":2,"baseOffset":0,"lastOffset":0,"sizeInBytes":181,"countOrNull":1,"partitionLeaderEpoch":-1,"crc":723920571,"baseTimestamp":1700607855459,`+
		`"attributes":0,"compression":"none","producerId":-1,"producerEpoch":-1,"baseSequence":-1,"lastSequence":-1,"isTransactional":false,"isControl":false,`+
		`"timestampType":"CreateTime","maxTimestamp":1700607855459,"deleteHorizonMs":null,"records":[{"offset":0,"timestamp":1700607855459,"sequence":-1,"sizeInBytes":120,`+
		`"key":"Y29yZCBiYXRjaCBvZg==","value":"v4XYOwKnHdGDgE2yUrrfwZK6aoqb0PC/BziKEQTVnr8w62r2YkKlH4/kgjYjsMniOTgBR2zyjhAHldZZWINKpnlxT3tr4cSUOgsdVbcPzfyhke3EUn41MKqASjAA5n9yOcE=","headers":[]}]}]}}]}]}}`+"\n", stdout)

	stdout, _, code = runDump(t, bin, nil, "-in", specDir, "-records", "size", "-omit-unknown-tags", file)
	require.Equal(t, 0, code)
	assert.Contains(t, stdout, `"partitionData":[{"index":0,"recordsSizeInBytes":181}]`)

	resp := clients.NewProduceResponse()
	rh := clients.NewResponseHeader()
	rh.CorrelationID = 42
	rframe, err := rh.AppendTo(nil, 1)
	require.NoError(t, err)
	rframe, err = resp.AppendTo(rframe, 9)
	require.NoError(t, err)
	stream := append(binary.BigEndian.AppendUint32(nil, uint32(len(rframe))), rframe...)
	stdout, stderr, code = runDump(t, bin, stream, "-in", specDir, "-response", "-api-key", "0", "-version", "9")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, `{"name":"ProduceResponse","version":9,"responseHeader":{"correlationId":42},"response":{"responses":[],"throttleTimeMs":0}}`+"\n", stdout)

	for _, args := range [][]string{
		{},                                      // no -in
		{"-in", specDir, "-response"},           // no api key and version
		{"-in", specDir, "-api-key", "1"},       // api key without -response
		{"-in", specDir, "-records", "hex"},     // unknown records mode
		{"-in", filepath.Join(specDir, "nope")}, // not a folder
	} {
		_, stderr, code := runDump(t, bin, nil, args...)
		assert.Equal(t, 2, code, "%v: %s", args, stderr)
		assert.True(t, strings.HasPrefix(stderr, "kafkagen dump: "), stderr)
	}
	_, _, code = runDump(t, bin, []byte{0, 0, 0, 9, 1}, "-in", specDir)
	assert.Equal(t, 1, code, "a stream ending inside a frame")
}

// TestDumpCaptures dumps the 649 request frames real clients sent to the
// example broker (testdata/captures: franz-go, sarama, kafka-go, kcat,
// kafka-python, kafkajs): each prints as the generated code writes it, and
// with the default -records batches every record batch of every codec reads.
func TestDumpCaptures(t *testing.T) {
	if !corpus.Available() {
		t.Skipf("SKIP: no Kafka spec corpus at %s (set KAFKA_SPEC_DIR)", corpus.SpecDir())
	}
	var files []string
	require.NoError(t, filepath.WalkDir(capturesDir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".bin") {
			files = append(files, path)
		}
		return err
	}))
	if len(files) == 0 {
		t.Skip("SKIP: no captured frames in testdata/captures")
	}
	bin := buildKafkagen(t)
	specDir := filepath.Join(corpus.SpecDir(), corpus.Dirs[0].Path)
	stdout, stderr, code := runDump(t, bin, nil, append([]string{"-in", specDir, "-records", "base64"}, files...)...)
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	require.Len(t, lines, len(files))
	for i, file := range files {
		frame, err := os.ReadFile(file)
		require.NoError(t, err)
		key, version := int16(binary.BigEndian.Uint16(frame)), int16(binary.BigEndian.Uint16(frame[2:]))
		m := clients.NewRequest(key)
		require.NotNil(t, m, file)
		h := clients.NewRequestHeader()
		n, err := h.Decode(frame, m.HeaderVersion(version))
		require.NoError(t, err, file)
		_, err = m.Decode(frame[n:], version)
		require.NoError(t, err, file)
		hj, err := h.AppendJSON(nil, m.HeaderVersion(version), runtime.JSONOptions{})
		require.NoError(t, err)
		bj, err := m.(runtime.JSONMessage).AppendJSON(nil, version, runtime.JSONOptions{})
		require.NoError(t, err)
		var o dumpOutput
		require.NoError(t, json.Unmarshal([]byte(lines[i]), &o))
		assert.Equal(t, string(hj), string(o.RequestHeader), file)
		assert.Equal(t, string(bj), string(o.Request), file)
	}

	stdout, stderr, code = runDump(t, bin, nil, append([]string{"-in", specDir}, files...)...)
	require.Equal(t, 0, code, stderr)
	assert.NotContains(t, stdout, `"error":`, "every captured record batch reads")
	batches, records := strings.Count(stdout, `{"magic":`), strings.Count(stdout, `{"offset":`)
	assert.Positive(t, batches)
	t.Logf("kafkagen dump: %d captured frames of 6 clients print as generated code writes them; their %d batches hold %d records", len(files), batches, records)
	fmt.Printf("dump captures: frames=%d batches=%d records=%d mismatches=0\n", len(files), batches, records)
}
