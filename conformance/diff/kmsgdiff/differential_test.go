package kmsgdiff

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkagen/kafkagen/generator/schema"
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
// kmsg v1.15.1 differs from Java"). A differential skips exactly its
// exclusions' (spec, version, direction) cases and no others.
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

// taggedTooEarly are the exclusions both folders share: kmsg writes a
// non-default tagged field in every flexible version, ignoring its
// taggedVersions start, and Java rejects such bytes ("Tag N is not valid for
// version V"). It only matters when kmsg writes.
func taggedTooEarly() []*exclusion {
	return []*exclusion{
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
	}
}

// kmsgOnlyTag is a tag kmsg v1.15.1 knows that a spec folder does not
// define (added by a later Kafka). kmsg reads it in every flexible version,
// so a random "unknown" tag with its number is not unknown to kmsg: it
// parses the payload as its field and fails on, or rewrites, random bytes
// that Java would preserve untouched. These are not message exclusions: the
// test draws its unknown tags above them, so that they are unknown to both
// codecs (kmsg still writes them in the kmsg->ours direction, and ours must
// preserve them as unknown).
type kmsgOnlyTag struct {
	spec, structName string // structName "" is the message body
	tag              int
	field            string
}

// target is one spec folder's generated package compared with kmsg.
type target struct {
	label       string // prefix of the printed lines: "kmsg", "kmsg-4.1.1"
	specs       []*schema.Spec
	apis        int // API keys the folder has, removed ones included
	removedAPIs int // APIs with "validVersions": "none" (no generated type)
	newRequest  func(int16) runtime.APIMessage
	newResponse func(int16) runtime.APIMessage
	exclusions  []*exclusion
	kmsgOnly    []kmsgOnlyTag
}

// reserveKmsgOnlyTags adds to each struct of kmsgOnly a placeholder tagged
// field present in no version, so that wiregen, which draws unknown tags
// above every tag a struct defines, never uses those tag numbers.
func reserveKmsgOnlyTags(t *testing.T, specs []*schema.Spec, kmsgOnly []kmsgOnlyTag) {
	for _, k := range kmsgOnly {
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
			require.False(t, f.HasTag && f.Tag == k.tag, "%s %s defines tag %d: drop it from the kmsg-only tags", k.spec, k.structName, k.tag)
		}
		st.Fields = append(st.Fields, &schema.Field{
			Name: "KmsgOnlyTag", Type: schema.Type{Raw: "bool", Kind: schema.KindBool},
			Versions: schema.None, NullableVersions: schema.None, TaggedVersions: schema.None,
			Present: schema.None, Tag: k.tag, HasTag: true, Owner: st,
		})
	}
}

func excludedDirs(exclusions []*exclusion, spec string, v int16) (direction, *exclusion) {
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

type sideKey struct {
	key int16
	req bool
}

// runDifferential compares ours with kmsg for every request and response
// API key of tg and every version both support, in both directions, and
// prints one "<label>: pairs=..." line. An API the folder removed
// ("validVersions": "none") must have no generated type; it is counted, not
// compared (Java has no class for it either).
func runDifferential(t *testing.T, tg target) {
	reserveKmsgOnlyTags(t, tg.specs, tg.kmsgOnly)
	specOf := map[sideKey]*schema.Spec{}
	maxKey := int16(-1)
	for _, s := range tg.specs {
		if !s.HasAPIKey || (s.Type != schema.TypeRequest && s.Type != schema.TypeResponse) {
			continue
		}
		specOf[sideKey{s.APIKey, s.Type == schema.TypeRequest}] = s
		maxKey = max(maxKey, s.APIKey)
	}
	require.Len(t, specOf, 2*tg.apis, "the folder has %d APIs", tg.apis)

	var (
		pairs, excludedPairs, messages, removed int
		changed                                 int // kmsg->ours encodings unlike the input
		mismatches                              []mismatch
		noKmsg                                  []string
		outside                                 []string
	)
	for key := int16(0); key <= maxKey; key++ {
		for _, req := range []bool{true, false} {
			spec := specOf[sideKey{key, req}]
			require.NotNil(t, spec, "key %d request=%v", key, req)
			newOurs := func() runtime.APIMessage {
				if req {
					return tg.newRequest(key)
				}
				return tg.newResponse(key)
			}
			if spec.Removed() {
				require.Nil(t, newOurs(), "%s has no valid versions: nothing may be generated for it", spec.Name)
				removed++
				continue
			}
			newOursMsg := func() runtime.Message { return newOurs() }
			ours := newOurs()
			require.NotNil(t, ours, "generated package lacks %s: run make conformance", spec.Name)
			require.Equal(t, spec.Name, ours.SpecName(), "generated package is stale: run make conformance")
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
				exDirs, ex := excludedDirs(tg.exclusions, spec.Name, v)
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
	require.Equal(t, tg.removedAPIs*2, removed, "removed APIs (requests and responses)")
	for _, e := range tg.exclusions {
		fmt.Printf("%s: excluded %s v%d-%d %s: pairs=%d checks=%d deviations=%d (%s)\n",
			tg.label, e.spec, e.lo, e.hi, e.dirs, e.pairs, e.checks, e.deviations, e.reason)
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
	fmt.Printf("%s: pairs=%d messages=%d excluded-pairs=%d removed-apis=%d mismatches=%d\n",
		tg.label, pairs, messages, excludedPairs, removed/2, len(mismatches))
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
