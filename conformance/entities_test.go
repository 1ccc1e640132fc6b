//go:build corpus

package conformance

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/dynamic"
	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/internal/wiregen"
	"github.com/kafkagen/kafkagen/runtime"
)

// visitSamplesPerPair is how many random messages each (spec, version) pair
// gets in the visitor test, each rewritten in every way of rewrites.
const visitSamplesPerPair = 20

// visitor makes the visitor functions of rw, recording in *seen the
// values they leave (the rewritten ones when rewrite is set).
func (rw rewrite) visitor(rewrite bool, seen *[]string) *runtime.EntityVisitor {
	v := &runtime.EntityVisitor{}
	switch {
	case rw.str != nil:
		v.String = func(p *string) {
			if rewrite {
				*p = rw.str(*p)
			}
			*seen = append(*seen, *p)
		}
	case rw.i32 != nil:
		v.Int32 = func(p *int32) {
			if rewrite {
				*p = rw.i32(*p)
			}
			*seen = append(*seen, fmt.Sprint(*p))
		}
	case rw.i64 != nil:
		v.Int64 = func(p *int64) {
			if rewrite {
				*p = rw.i64(*p)
			}
			*seen = append(*seen, fmt.Sprint(*p))
		}
	case rw.uuid != nil:
		v.UUID = func(p *runtime.UUID) {
			if rewrite {
				*p = rw.uuid(*p)
			}
			*seen = append(*seen, fmt.Sprintf("%x", *p))
		}
	}
	return v
}

// visit runs rw on m at version through the generated visitor and returns
// what it left in the fields it visited, in order.
func (rw rewrite) visit(m runtime.Message, version int16, rewrite bool) []string {
	var seen []string
	if rw.entity == runtime.EntityUnknown {
		m.(runtime.Endpoints).VisitEndpoints(version, func(node int32, host *string, port *int32) {
			if rewrite {
				*host, *port = endpointHost(node), endpointPort(node)
			}
			seen = append(seen, fmt.Sprintf("%d=%s:%d", node, *host, *port))
		})
		return seen
	}
	m.(runtime.Entities).VisitEntities(version, rw.entity, rw.visitor(rewrite, &seen))
	return seen
}

// visitCounts are the numbers the test logs for one rewrite.
type visitCounts struct {
	visits int             // values visited
	pairs  map[string]bool // "Spec vN" pairs where some value was visited
}

// TestCorpusVisitors rewrites random messages of every (spec, version)
// pair of the corpus through the generated visitors (every topic, group and
// transactional id prefixed with "tenant1.", topic ids with their first
// byte flipped, broker ids + 1000, producer ids
// + 1, broker addresses moved to proxy-<id>:9000+id), encodes them, decodes
// them, and checks that the visitor then reads back exactly the rewritten
// values, and that the run-time interpreter (package dynamic) sees nothing
// else changed. Every pair whose message holds a field of an entity type
// (or an address), by the specs, must have had one visited.
func TestCorpusVisitors(t *testing.T) {
	specs, pkgOf := corpusSpecs(t)
	counts := map[string]*visitCounts{}
	for _, rw := range rewrites {
		counts[rw.name] = &visitCounts{pairs: map[string]bool{}}
	}
	pairs, messages := 0, 0
	for _, spec := range specs {
		newMsg := func() runtime.Message { return pkgOf[spec].newByName(spec.Name) }
		for _, v := range wiregen.Versions(spec) {
			pairs++
			rng := rand.New(rand.NewPCG(uint64(v)+7, hash(spec.Name)))
			for i := range visitSamplesPerPair {
				opts := wiregen.Options{UnknownTags: i%3 == 1, MaxArray: 1 + i%4}
				src := wiregen.Encode(spec, v, rng, opts)
				before, _, err := dynMessage(spec).Decode(src, v)
				require.NoError(t, err, "%s v%d: dynamic decode", spec.Name, v)
				for _, rw := range rewrites {
					if err := checkVisitor(spec, newMsg, src, before, v, rw, counts[rw.name]); err != nil {
						t.Fatalf("%s v%d sample %d, %s: %v", spec.Name, v, i, rw.name, err)
					}
				}
				messages++
			}
		}
	}
	rewritten, visits := 0, 0
	for _, rw := range rewrites {
		c := counts[rw.name]
		t.Logf("%s: %d values visited in %d pairs", rw.name, c.visits, len(c.pairs))
		require.Equal(t, sortedKeys(entityPairs(specs, rw.name), false), sortedKeys(c.pairs, false),
			"%s: the pairs whose messages hold such fields (by the specs) and those where the visitor found some", rw.name)
		rewritten += len(c.pairs)
		visits += c.visits
	}
	require.Equal(t, 783, pairs)
	require.Equal(t, endpointSpecs, sortedKeys(counts["endpoints"].pairs, true), "messages whose VisitEndpoints visited an address")
	fmt.Printf("visitors: pairs=%d rewritten-pairs=%d messages=%d visits=%d mismatches=0\n", pairs, rewritten, messages, visits)
}

// checkVisitor rewrites src (decoded by the interpreter as before) with rw
// and checks the result.
func checkVisitor(spec *schema.Spec, newMsg func() runtime.Message, src []byte, before *dynamic.Struct, v int16, rw rewrite, c *visitCounts) error {
	m := newMsg()
	if _, err := m.Decode(src, v); err != nil {
		return fmt.Errorf("Decode: %w", err)
	}
	want := rw.visit(m, v, true)
	out, err := m.AppendTo(nil, v)
	if err != nil {
		return fmt.Errorf("AppendTo after the rewrite: %w", err)
	}
	if len(want) == 0 {
		if !bytes.Equal(out, src) {
			return fmt.Errorf("nothing visited, but the encoding changed:\n got %x\nwant %x", out, src)
		}
		// The oracle still checks that nothing was there to rewrite.
		return checkRewrite(before, before, v, rw)
	}
	c.visits += len(want)
	c.pairs[fmt.Sprintf("%s v%d", spec.Name, v)] = true
	if bytes.Equal(out, src) {
		return fmt.Errorf("%d values rewritten, but the encoding is unchanged", len(want))
	}
	back := newMsg()
	if _, err := back.Decode(out, v); err != nil {
		return fmt.Errorf("Decode of the rewritten message: %w", err)
	}
	if got := rw.visit(back, v, false); !slices.Equal(got, want) {
		return fmt.Errorf("decoded after the rewrite, the visitor reads\n%q\nnot\n%q", got, want)
	}
	after, _, err := dynMessage(spec).Decode(out, v)
	if err != nil {
		return fmt.Errorf("dynamic decode of the rewritten message: %w", err)
	}
	return checkRewrite(before, after, v, rw)
}

// endpointSpecs are the messages that hold broker addresses (a string Host
// and an int32 Port beside a node id), as read from the corpus by hand:
// MetadataResponse Brokers[], FindCoordinatorResponse (itself at v0-3,
// Coordinators[] from v4), DescribeClusterResponse Brokers[], the
// NodeEndpoints[] of ProduceResponse (v10+), FetchResponse (v16+),
// ShareFetchResponse and ShareAcknowledgeResponse, and
// UpdateRaftVoterResponse CurrentLeader. The raft messages' addresses have
// uint16 ports and are not among them.
var endpointSpecs = []string{
	"DescribeClusterResponse", "FetchResponse", "FindCoordinatorResponse", "MetadataResponse",
	"ProduceResponse", "ShareAcknowledgeResponse", "ShareFetchResponse", "UpdateRaftVoterResponse",
}

// sortedKeys lists the keys of set, sorted, or with specNames the distinct
// spec names of its "Spec vN" keys.
func sortedKeys(set map[string]bool, specNames bool) []string {
	seen := map[string]bool{}
	var out []string
	for k := range set {
		if specNames {
			k, _, _ = strings.Cut(k, " ")
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// entityPairs lists the "Spec vN" pairs where some field of entity type
// name (or, for "endpoints", some broker address) is reachable from the
// message at version, read from the specs.
func entityPairs(specs []*schema.Spec, name string) map[string]bool {
	out := map[string]bool{}
	for _, spec := range specs {
		for _, v := range wiregen.Versions(spec) {
			if holds(spec.Root, v, name, 0) {
				out[fmt.Sprintf("%s v%d", spec.Name, v)] = true
			}
		}
	}
	return out
}

// holds reports whether def has at version a field of entity type name, or
// a broker address for "endpoints", itself or in a struct it holds.
func holds(def *schema.Struct, v int16, name string, depth int) bool {
	if id, host, port, ok := addressFields(def); ok && name == "endpoints" &&
		def.Fields[id].Versions.Contains(v) && def.Fields[host].Versions.Contains(v) && def.Fields[port].Versions.Contains(v) {
		return true
	}
	for _, f := range def.Fields {
		if !f.Versions.Contains(v) || depth > 64 {
			continue
		}
		if namesEntity(f, name) || f.Struct != nil && holds(f.Struct, v, name, depth+1) {
			return true
		}
	}
	return false
}

// TestCorpusEndpointStructs lists the structs of the corpus that hold a
// broker address, with the versions that have its three fields, against
// the list read from the specs by hand.
func TestCorpusEndpointStructs(t *testing.T) {
	specs, _ := corpusSpecs(t)
	var got []string
	for _, spec := range specs {
		for _, def := range append([]*schema.Struct{spec.Root}, spec.Structs...) {
			id, host, port, ok := addressFields(def)
			if !ok {
				continue
			}
			fs := def.Fields
			vs := fs[id].Versions.Intersect(fs[host].Versions).Intersect(fs[port].Versions)
			got = append(got, fmt.Sprintf("%s.%s %s v%s", spec.Name, def.Name, fs[id].Name, vs))
		}
	}
	sort.Strings(got)
	require.Equal(t, []string{
		"DescribeClusterResponse.DescribeClusterBroker BrokerId v0+",
		"FetchResponse.NodeEndpoint NodeId v16+",
		"FindCoordinatorResponse.Coordinator NodeId v4+",
		"FindCoordinatorResponse.FindCoordinatorResponse NodeId v0-3",
		"MetadataResponse.MetadataResponseBroker NodeId v0+",
		"ProduceResponse.NodeEndpoint NodeId v10+",
		"ShareAcknowledgeResponse.NodeEndpoint NodeId v0+",
		"ShareFetchResponse.NodeEndpoint NodeId v0+",
		"UpdateRaftVoterResponse.CurrentLeader LeaderId v0+",
	}, got)
}
