package kmsgdiff

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkagen/kafkagen/conformance/gen/clients"
	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/internal/corpus"
	"github.com/kafkagen/kafkagen/internal/roundtrip"
	"github.com/kafkagen/kafkagen/internal/wiregen"
	"github.com/kafkagen/kafkagen/runtime"
)

// samplesPerPair is how many random messages each (API key, side, version)
// gets in each direction.
var samplesPerPair = flag.Int("samples", 100, "random messages per (API key, side, version) and direction")

// direction is a set of the two directions of the comparison.
type direction int

const (
	// oursToKmsg: a canonical encoding that ours writes (wiregen's, checked
	// to round-trip through ours) is read by kmsg and re-written identically.
	oursToKmsg direction = 1 << iota
	// kmsgToOurs: bytes kmsg writes for a randomly mutated kmsg message are
	// decoded by ours, consuming every byte, and re-encoded identically.
	kmsgToOurs
	both = oursToKmsg | kmsgToOurs
)

func (d direction) String() string {
	switch d {
	case oursToKmsg:
		return "ours->kmsg"
	case kmsgToOurs:
		return "kmsg->ours"
	case both:
		return "both directions"
	}
	return "none"
}

// exclusion is one of kmsg v1.15.1's known deviations from Apache Kafka's
// Java implementation, as listed in docs/protocol.md ("Where franz-go's
// kmsg v1.15.1 differs from Java"). The test skips exactly these (spec,
// version, direction) cases and no others.
type exclusion struct {
	spec   string
	lo, hi int16
	dirs   direction
	reason string
	// want is the error ours must report for the deviation (nil: any
	// failure). Another failure in an excluded case is a mismatch.
	want error

	pairs      int // (key, side, version) pairs it covered
	deviations int // excluded checks that did fail (the deviation seen)
	checks     int // excluded checks run
}

// exclusions: kmsg writes a non-default tagged field in every flexible
// version, ignoring its taggedVersions start (Java rejects such bytes with
// "Tag N is not valid for version V"), which only matters when kmsg writes;
// and two layout differences that break both directions.
var exclusions = []*exclusion{
	{spec: "FetchRequest", lo: 12, hi: 16, dirs: kmsgToOurs, want: runtime.ErrInvalidTag,
		reason: "kmsg writes tagged ReplicaState (15+) / ReplicaDirectoryId (17+) in every flexible version"},
	{spec: "FetchResponse", lo: 12, hi: 15, dirs: kmsgToOurs, want: runtime.ErrInvalidTag,
		reason: "kmsg writes tagged NodeEndpoints (16+) in every flexible version"},
	{spec: "ProduceResponse", lo: 9, hi: 9, dirs: kmsgToOurs, want: runtime.ErrInvalidTag,
		reason: "kmsg writes tagged CurrentLeader / NodeEndpoints (10+) in v9"},
	{spec: "FetchSnapshotRequest", lo: 0, hi: 0, dirs: kmsgToOurs, want: runtime.ErrInvalidTag,
		reason: "kmsg writes tagged ReplicaDirectoryId (1+) in v0"},
	{spec: "FetchSnapshotResponse", lo: 0, hi: 0, dirs: kmsgToOurs, want: runtime.ErrInvalidTag,
		reason: "kmsg writes tagged NodeEndpoints (1+) in v0"},
	{spec: "VoteResponse", lo: 0, hi: 0, dirs: kmsgToOurs, want: runtime.ErrInvalidTag,
		reason: "kmsg writes tagged NodeEndpoints (1+) in v0"},
	{spec: "BrokerHeartbeatRequest", lo: 0, hi: 0, dirs: kmsgToOurs, want: runtime.ErrInvalidTag,
		reason: "kmsg writes tagged OfflineLogDirs (1+) in v0"},
	{spec: "StopReplicaRequest", lo: 4, hi: 4, dirs: both,
		reason: "kmsg orders ControllerEpoch before IsKRaftController (spec: ControllerId, IsKRaftController, ControllerEpoch)"},
	{spec: "ReadShareGroupStateSummaryResponse", lo: 0, hi: 0, dirs: both,
		reason: "kmsg has a LeaderEpoch field that this snapshot's spec lacks"},
}

// kmsgOnlyTags are the tags kmsg v1.15.1 knows that this snapshot's spec
// does not define (both added by later Kafka versions). kmsg reads them in
// every flexible version, so a random "unknown" tag with one of these numbers
// is not unknown to kmsg: it parses the payload as its field and fails on, or
// rewrites, random bytes that Java's snapshot would preserve untouched. These
// are not message exclusions: the test draws its unknown tags above them,
// so that they are unknown to both codecs (kmsgOnlyTags are still written by
// kmsg in the kmsg->ours direction, and ours must preserve them as unknown).
var kmsgOnlyTags = []struct {
	spec, structName string // structName "" is the message body
	tag              int
	field            string
}{
	{"FetchRequest", "FetchPartition", 1, "HighWatermark (KIP-1166, Fetch v18)"},
	{"BrokerHeartbeatRequest", "", 1, "CordonedLogDirs (KIP-1066, BrokerHeartbeat v2)"},
}

// reserveKmsgOnlyTags adds to each struct of kmsgOnlyTags a placeholder
// tagged field present in no version, so that wiregen, which draws unknown
// tags above every tag a struct defines, never uses those tag numbers.
func reserveKmsgOnlyTags(t *testing.T, specs []*schema.Spec) {
	for _, k := range kmsgOnlyTags {
		var st *schema.Struct
		for _, s := range specs {
			if s.Name != k.spec {
				continue
			}
			if k.structName == "" {
				st = s.Root
			}
			for _, c := range s.Structs {
				if c.Name == k.structName {
					st = c
				}
			}
		}
		require.NotNil(t, st, "%s %s", k.spec, k.structName)
		for _, f := range st.Fields {
			require.False(t, f.HasTag && f.Tag == k.tag, "%s %s defines tag %d: drop it from kmsgOnlyTags", k.spec, k.structName, k.tag)
		}
		st.Fields = append(st.Fields, &schema.Field{
			Name: "KmsgOnlyTag", Type: schema.Type{Raw: "bool", Kind: schema.KindBool},
			Versions: schema.None, NullableVersions: schema.None, TaggedVersions: schema.None,
			Present: schema.None, Tag: k.tag, HasTag: true, Owner: st,
		})
	}
}

func excludedDirs(spec string, v int16) (direction, *exclusion) {
	for _, e := range exclusions {
		if e.spec == spec && e.lo <= v && v <= e.hi {
			return e.dirs, e
		}
	}
	return 0, nil
}

// kmsgMessage is what kmsg.Request and kmsg.Response have in common.
type kmsgMessage interface {
	MaxVersion() int16
	SetVersion(int16)
	AppendTo([]byte) []byte
	ReadFrom([]byte) error
}

type mismatch struct {
	pair   string
	dir    direction
	sample int
	err    error
}

// TestKmsgDifferential compares ours with kmsg for every request and
// response API key and every version both support, in both directions.
func TestKmsgDifferential(t *testing.T) {
	if !corpus.Available() {
		t.Skipf("SKIP: no Kafka spec corpus at %s (set KAFKA_SPEC_DIR)", corpus.SpecDir())
	}
	specs, err := schema.LoadDir(filepath.Join(corpus.SpecDir(), corpus.Dirs[0].Path))
	require.NoError(t, err)
	reserveKmsgOnlyTags(t, specs)
	type sideKey struct {
		key int16
		req bool
	}
	specOf := map[sideKey]*schema.Spec{}
	maxKey := int16(-1)
	for _, s := range specs {
		if !s.HasAPIKey || (s.Type != schema.TypeRequest && s.Type != schema.TypeResponse) {
			continue
		}
		specOf[sideKey{s.APIKey, s.Type == schema.TypeRequest}] = s
		maxKey = max(maxKey, s.APIKey)
	}
	require.Len(t, specOf, 2*88, "the corpus has 88 APIs")

	var (
		pairs, excludedPairs, messages int
		changed                        int // kmsg->ours encodings unlike the input
		mismatches                     []mismatch
		noKmsg                         []string
		outside                        []string
	)
	for key := int16(0); key <= maxKey; key++ {
		for _, req := range []bool{true, false} {
			spec := specOf[sideKey{key, req}]
			require.NotNil(t, spec, "key %d request=%v", key, req)
			newOurs := func() runtime.APIMessage {
				if req {
					return clients.NewRequest(key)
				}
				return clients.NewResponse(key)
			}
			newOursMsg := func() runtime.Message { return newOurs() }
			ours := newOurs()
			require.NotNil(t, ours, "generated package lacks %s: run make kmsgdiff", spec.Name)
			require.Equal(t, spec.Name, ours.SpecName(), "generated package is stale: run make kmsgdiff")
			require.Equal(t, req, ours.IsRequest())
			newKmsg := func() kmsgMessage {
				if req {
					if r := kmsg.RequestForKey(key); r != nil {
						return r
					}
				} else if r := kmsg.ResponseForKey(key); r != nil {
					return r
				}
				return nil
			}
			km := newKmsg()
			if km == nil {
				noKmsg = append(noKmsg, spec.Name)
				continue
			}
			lo, hi := max(ours.MinVersion(), 0), min(ours.MaxVersion(), km.MaxVersion())
			if lo > hi {
				outside = append(outside, fmt.Sprintf("%s (ours v%d-%d, kmsg v0-%d)", spec.Name, ours.MinVersion(), ours.MaxVersion(), km.MaxVersion()))
				continue
			}
			for v := lo; v <= hi; v++ {
				exDirs, ex := excludedDirs(spec.Name, v)
				if ex != nil {
					ex.pairs++
					excludedPairs++
				} else {
					pairs++
				}
				pair := fmt.Sprintf("%s v%d (key %d)", spec.Name, v, key)
				rng := rand.New(rand.NewPCG(uint64(key)<<17|uint64(v)<<1|b2u(req), 0x6b6d7367))
				record := func(dir direction, sample int, err error) {
					if err == nil {
						if exDirs&dir == 0 {
							messages++
						} else {
							ex.checks++
						}
						return
					}
					if exDirs&dir != 0 && (ex.want == nil || errors.Is(err, ex.want)) {
						ex.checks++
						ex.deviations++
						return
					}
					mismatches = append(mismatches, mismatch{pair, dir, sample, err})
				}
				for i := 0; i < *samplesPerPair; i++ {
					opts := wiregen.Options{UnknownTags: i%2 == 1, LongStrings: i%10 == 9, MaxArray: 1 + i%3}
					src := wiregen.Encode(spec, v, rng, opts)
					// (a) ours -> kmsg.
					record(oursToKmsg, i, oursToKmsgCheck(newOursMsg, newKmsg, src, v))
					// (b) kmsg -> ours.
					seed := rng.Uint64()
					kb, err := kmsgToOursCheck(newOursMsg, newKmsg, src, v, rand.New(rand.NewPCG(seed, 1)))
					if err == nil && exDirs&kmsgToOurs == 0 && !bytes.Equal(kb, src) {
						changed++
					}
					record(kmsgToOurs, i, err)
				}
			}
		}
	}

	if len(noKmsg) > 0 {
		t.Logf("kmsg v1.15.1 has no message for: %s", strings.Join(noKmsg, ", "))
	}
	if len(outside) > 0 {
		t.Logf("no version in common: %s", strings.Join(outside, ", "))
	}
	for _, e := range exclusions {
		line := fmt.Sprintf("kmsg: excluded %s v%d-%d %s: pairs=%d checks=%d deviations=%d (%s)",
			e.spec, e.lo, e.hi, e.dirs, e.pairs, e.checks, e.deviations, e.reason)
		fmt.Println(line)
		// An exclusion that covers nothing, or whose deviation never shows,
		// is not one of kmsg's deviations here: it would hide real bugs.
		if e.pairs != int(e.hi-e.lo+1) {
			t.Errorf("exclusion %s v%d-%d covers %d pairs, want %d", e.spec, e.lo, e.hi, e.pairs, e.hi-e.lo+1)
		}
		if e.deviations == 0 {
			t.Errorf("exclusion %s v%d-%d: the deviation never showed in %d checks", e.spec, e.lo, e.hi, e.checks)
		}
	}
	for i, m := range mismatches {
		if i == 30 {
			t.Errorf("... and %d more mismatches", len(mismatches)-i)
			break
		}
		t.Errorf("%s %s sample %d: %v", m.pair, m.dir, m.sample, m.err)
	}
	t.Logf("kmsg->ours: %d of the kmsg encodings checked differ from the canonical input they were mutated from", changed)
	fmt.Printf("kmsg: pairs=%d messages=%d excluded-pairs=%d mismatches=%d\n", pairs, messages, excludedPairs, len(mismatches))
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// oursToKmsgCheck: src round-trips through ours (so it is what ours writes),
// and kmsg reads it and writes it back byte for byte.
func oursToKmsgCheck(newOurs func() runtime.Message, newKmsg func() kmsgMessage, src []byte, v int16) (err error) {
	defer catch(&err)
	if err := roundtrip.Check(newOurs, nil, src, v); err != nil {
		return fmt.Errorf("ours does not round-trip the canonical encoding %x: %w", src, err)
	}
	km := newKmsg()
	km.SetVersion(v)
	if err := km.ReadFrom(src); err != nil {
		return fmt.Errorf("kmsg ReadFrom(%x): %w", src, err)
	}
	if out := km.AppendTo(nil); !bytes.Equal(out, src) {
		return fmt.Errorf("kmsg re-encodes ours' bytes differently:\n ours %x\n kmsg %x", src, out)
	}
	return nil
}

// kmsgToOursCheck: kmsg reads src, its message is mutated at random, and the
// bytes kmsg then writes must decode with ours, consuming every byte, and
// re-encode identically (with every other round-trip property of ours).
func kmsgToOursCheck(newOurs func() runtime.Message, newKmsg func() kmsgMessage, src []byte, v int16, rng *rand.Rand) (kb []byte, err error) {
	defer catch(&err)
	km := newKmsg()
	km.SetVersion(v)
	if err := km.ReadFrom(src); err != nil {
		return nil, fmt.Errorf("kmsg ReadFrom(%x): %w", src, err)
	}
	mutate(reflect.ValueOf(km).Elem(), rng, true)
	kb = km.AppendTo(nil)
	if err := roundtrip.Check(newOurs, nil, kb, v); err != nil {
		return kb, fmt.Errorf("kmsg-encoded %x (%+v): %w", kb, km, err)
	}
	return kb, nil
}

// catch turns a panic of either codec into the check's error.
func catch(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("panic: %v", r)
	}
}

var tagsType = reflect.TypeOf(kmsg.Tags{})

// mutate changes a decoded kmsg message at random: scalars get new values,
// UUIDs and bytes new contents, arrays lose trailing elements or gain a
// defaulted then mutated one, and nil pointers (null nullable strings and
// structs) sometimes become values. It never makes a value null, so kmsg
// only writes what is valid for the version (fields absent at the version
// are not written by kmsg at all). The top-level Version field and unknown
// tags are left alone.
func mutate(v reflect.Value, rng *rand.Rand, top bool) {
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == tagsType {
			return
		}
		t := v.Type()
		for i := 0; i < v.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() || top && f.Name == "Version" {
				continue
			}
			mutate(v.Field(i), rng, false)
		}
	case reflect.Pointer:
		if v.IsNil() {
			if rng.IntN(4) != 0 {
				return
			}
			n := reflect.New(v.Type().Elem())
			setDefault(n)
			v.Set(n)
		}
		mutate(v.Elem(), rng, false)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			if !v.IsNil() && rng.IntN(2) == 0 {
				v.SetBytes(randBytes(rng))
			}
			return
		}
		if v.Len() > 0 && rng.IntN(8) == 0 {
			v.Set(v.Slice(0, rng.IntN(v.Len())))
		}
		if rng.IntN(4) == 0 {
			e := reflect.New(v.Type().Elem())
			setDefault(e)
			v.Set(reflect.Append(v, e.Elem()))
		}
		for i := 0; i < v.Len(); i++ {
			mutate(v.Index(i), rng, false)
		}
	case reflect.Array:
		if rng.IntN(2) == 0 {
			for i := 0; i < v.Len(); i++ {
				mutate(v.Index(i), rng, false)
			}
		}
	case reflect.Bool:
		if rng.IntN(2) == 0 {
			v.SetBool(rng.IntN(2) == 0)
		}
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if rng.IntN(2) == 0 {
			v.SetInt(randInt(rng, v.Type().Bits()))
		}
	case reflect.Uint8:
		// An element of a UUID ([16]byte): any byte.
		v.SetUint(uint64(rng.IntN(256)))
	case reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if rng.IntN(2) == 0 {
			v.SetUint(uint64(randInt(rng, v.Type().Bits())) & (1<<v.Type().Bits() - 1))
		}
	case reflect.Float64:
		if rng.IntN(2) == 0 {
			switch rng.IntN(4) {
			case 0:
				v.SetFloat(0)
			case 1:
				v.SetFloat(math.Float64frombits(rng.Uint64()))
			default:
				v.SetFloat(rng.NormFloat64() * 1000)
			}
		}
	case reflect.String:
		if rng.IntN(2) == 0 {
			v.SetString(randString(rng))
		}
	default:
		panic(fmt.Sprintf("mutate: unexpected kind %s (%s)", v.Kind(), v.Type()))
	}
}

// setDefault calls kmsg's Default method on a new *T, when T has one.
func setDefault(p reflect.Value) {
	if m := p.MethodByName("Default"); m.IsValid() && m.Type().NumIn() == 0 {
		m.Call(nil)
	}
}

func randInt(rng *rand.Rand, bits int) int64 {
	switch rng.IntN(6) {
	case 0:
		return 0
	case 1:
		return -1
	case 2:
		return int64(rng.IntN(100))
	case 3:
		return -1 << (bits - 1) // min
	case 4:
		return 1<<(bits-1) - 1 // max
	default:
		return int64(rng.Uint64()<<(64-bits)) >> (64 - bits)
	}
}

const alphabet = "abcdefghijklmnopqrstuvwxyz-_.0123456789é€"

func randString(rng *rand.Rand) string {
	r := []rune(alphabet)
	var b strings.Builder
	for n := rng.IntN(9); n > 0; n-- {
		b.WriteRune(r[rng.IntN(len(r))])
	}
	return b.String()
}

func randBytes(rng *rand.Rand) []byte {
	b := make([]byte, rng.IntN(9))
	for i := range b {
		b[i] = byte(rng.IntN(256))
	}
	return b
}
