package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/dynamic"
	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/internal/wiregen"
	"github.com/kafkagen/kafkagen/proxy"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// The tenant's coverage, field by field: for every request and response of
// every version of the client protocol, random messages (internal/wiregen)
// go through the tenant, and the run-time interpreter (package dynamic,
// reading the spec files) checks every field that names a topic, group or
// transactional id, or holds a topic id, by the specs: in a request each
// name must come out prefixed and each id must get the request refused; in
// a response (whose names, random, are all another tenant's) no name may
// come out. Which fields name something is read from the specs (entity
// types, schema.IsTopicID) and, for the strings the specs leave unmarked,
// from unmarkedNames below, which must list every candidate.

// unmarked is what an unmarked string field holds, as reviewed.
type unmarked struct {
	entity string // "topicName", "groupId" or "transactionalId"; "" for no name
	// when, if set, says from the field's struct whether it names the
	// entity (a config resource's type).
	when func(parent *dynamic.Struct) bool
	why  string // for no name: what it is
}

func configResource(entity string, typ int8) unmarked {
	return unmarked{entity: entity, when: func(p *dynamic.Struct) bool {
		v, _ := p.Field("ResourceType")
		return int8(v.Int) == typ
	}}
}

var notAName = func(why string) unmarked { return unmarked{why: why} }

// unmarkedNames are the string fields of the tenant's apis whose names look
// like they could name something (unmarkedCandidate) and which the specs
// give no entity type, with what each holds. A config resource names a
// topic (type 2) or a group (type 32); FindCoordinator's keys are groups
// or transactional ids (both prefixed, KeyType says which).
var unmarkedNames = map[string][]unmarked{
	"AlterConfigsRequest Resources[].ResourceName":             {configResource("topicName", 2), configResource("groupId", 32)},
	"AlterConfigsResponse Responses[].ResourceName":            {configResource("topicName", 2), configResource("groupId", 32)},
	"DescribeConfigsRequest Resources[].ResourceName":          {configResource("topicName", 2), configResource("groupId", 32)},
	"DescribeConfigsResponse Results[].ResourceName":           {configResource("topicName", 2), configResource("groupId", 32)},
	"IncrementalAlterConfigsRequest Resources[].ResourceName":  {configResource("topicName", 2), configResource("groupId", 32)},
	"IncrementalAlterConfigsResponse Responses[].ResourceName": {configResource("topicName", 2), configResource("groupId", 32)},
	"FindCoordinatorRequest Key":                               {{entity: "groupId"}},
	"FindCoordinatorRequest CoordinatorKeys[]":                 {{entity: "groupId"}},
	"FindCoordinatorResponse Coordinators[].Key":               {{entity: "groupId"}},
	"ConsumerGroupHeartbeatRequest SubscribedTopicRegex":       {notAName("a topic regex: refused when set (tenantCheck)")},
	"ListTransactionsRequest TransactionalIdPattern":           {notAName("a transactional-id regex: refused when set (tenantCheck)")},
	"ConsumerGroupDescribeResponse Groups[].Members[].SubscribedTopicRegex": {
		notAName("the regex a member of this tenant's group set, which the proxy refuses")},
	"AlterConfigsRequest Resources[].Configs[].Name":                    {notAName("a config key")},
	"CreateTopicsRequest Topics[].Configs[].Name":                       {notAName("a config key")},
	"CreateTopicsResponse Topics[].Configs[].Name":                      {notAName("a config key")},
	"DescribeConfigsRequest Resources[].ConfigurationKeys[]":            {notAName("a config key")},
	"DescribeConfigsResponse Results[].Configs[].Name":                  {notAName("a config key")},
	"DescribeConfigsResponse Results[].Configs[].Synonyms[].Name":       {notAName("a config key")},
	"IncrementalAlterConfigsRequest Resources[].Configs[].Name":         {notAName("a config key")},
	"ApiVersionsRequest ClientSoftwareName":                             {notAName("the client library's name")},
	"ApiVersionsResponse SupportedFeatures[].Name":                      {notAName("a feature")},
	"ApiVersionsResponse FinalizedFeatures[].Name":                      {notAName("a feature")},
	"ConsumerGroupDescribeResponse Groups[].GroupState":                 {notAName("a state")},
	"ConsumerGroupDescribeResponse Groups[].AssignorName":               {notAName("an assignor")},
	"DescribeGroupsResponse Groups[].GroupState":                        {notAName("a state")},
	"DescribeTransactionsResponse TransactionStates[].TransactionState": {notAName("a state")},
	"ListGroupsResponse Groups[].GroupState":                            {notAName("a state")},
	"ListGroupsResponse Groups[].GroupType":                             {notAName("a type")},
	"ListTransactionsResponse TransactionStates[].TransactionState":     {notAName("a state")},
	"ShareGroupDescribeResponse Groups[].GroupState":                    {notAName("a state")},
	"ShareGroupDescribeResponse Groups[].AssignorName":                  {notAName("an assignor")},
	"JoinGroupRequest Protocols[].Name":                                 {notAName("an assignor")},
	"JoinGroupResponse ProtocolName":                                    {notAName("an assignor")},
	"SyncGroupRequest ProtocolName":                                     {notAName("an assignor")},
	"SyncGroupResponse ProtocolName":                                    {notAName("an assignor")},
	"DescribeGroupsResponse Groups[].Members[].GroupInstanceId":         {notAName("a static member's id, within its group")},
	"HeartbeatRequest GroupInstanceId":                                  {notAName("a static member's id, within its group")},
	"JoinGroupRequest GroupInstanceId":                                  {notAName("a static member's id, within its group")},
	"JoinGroupResponse Members[].GroupInstanceId":                       {notAName("a static member's id, within its group")},
	"LeaveGroupRequest Members[].GroupInstanceId":                       {notAName("a static member's id, within its group")},
	"LeaveGroupResponse Members[].GroupInstanceId":                      {notAName("a static member's id, within its group")},
	"OffsetCommitRequest GroupInstanceId":                               {notAName("a static member's id, within its group")},
	"SyncGroupRequest GroupInstanceId":                                  {notAName("a static member's id, within its group")},
	"TxnOffsetCommitRequest GroupInstanceId":                            {notAName("a static member's id, within its group")},
}

// unmarkedCandidate finds the unmarked strings that unmarkedNames must
// review: names that speak of topics, groups, transactions, resources,
// keys, regexes, patterns or names.
var unmarkedCandidate = regexp.MustCompile(`(?i)topic|group|transaction|resource|key|regex|pattern|name`)

// coverageSamples is how many random messages each (api, version) gets.
const coverageSamples = 8

func TestTenantCoverage(t *testing.T) {
	specs := clientSpecs(t)
	allowed := map[int16]bool{}
	for _, k := range tenantAPIs {
		allowed[k] = true
	}
	seenCandidates := map[string]bool{}
	counts := map[string]int{}
	for _, spec := range specs {
		request := spec.Type == schema.TypeRequest
		if !request && spec.Type != schema.TypeResponse || !allowed[spec.APIKey] {
			continue
		}
		for _, path := range candidates(spec) {
			seenCandidates[path] = true
			require.Contains(t, unmarkedNames, path, "an unmarked string field that may name a topic, group or transactional id: review it")
		}
		dm := dynamic.NewMessage(spec)
		for _, v := range wiregen.Versions(spec) {
			rng := rand.New(rand.NewPCG(uint64(spec.APIKey), uint64(v)))
			for i := range coverageSamples {
				src := wiregen.Encode(spec, v, rng, wiregen.Options{MaxArray: 1 + i%3, MaxString: 12})
				before, _, err := dm.Decode(src, v)
				require.NoError(t, err)
				where := fmt.Sprintf("%s v%d sample %d", spec.Name, v, i)
				if request {
					counts[checkRequest(t, spec, dm, src, before, v, where)]++
				} else {
					counts[checkResponse(t, spec, dm, src, before, v, where)]++
				}
			}
		}
	}
	for path := range unmarkedNames {
		assert.True(t, seenCandidates[path], "%s: listed in unmarkedNames but not a candidate of the tenant's apis", path)
	}
	t.Logf("tenant coverage: %v", counts)
	fmt.Printf("tenant-coverage: apis=%d requests-prefixed=%d requests-refused=%d responses-refused=%d responses-relayed=%d unhandled=0\n",
		len(tenantAPIs), counts["prefixed"], counts["refused"], counts["response refused"], counts["response relayed"])
}

// checkRequest runs a request through a fresh tenant (it has seen no topic
// id) and checks each named field; it returns what happened.
func checkRequest(t *testing.T, spec *schema.Spec, dm *dynamic.Message, src []byte, before *dynamic.Struct, v int16, where string) string {
	m := kafkamsg.NewRequest(spec.APIKey)
	_, err := m.Decode(src, v)
	require.NoError(t, err, where)
	tenant := newTenant("t.")
	x := &proxy.Exchange{Header: frames.RequestHeader{APIKey: spec.APIKey, APIVersion: v}, Request: m}
	err = tenant.Request(x)
	refused := err != nil || x.Answered() != nil
	var ids, regexes int
	walkNamed(spec, before, v, func(path, entity string, val dynamic.Value, _ *dynamic.Value) {
		switch {
		case entity == "topicId" && val.UUID != (runtime.UUID{}):
			ids++
		case isRegex(path) && !val.Null && val.Str != "":
			regexes++
		}
	}, nil)
	if ids > 0 || regexes > 0 {
		require.True(t, refused, "%s names %d topic ids the tenant was not shown and %d regexes, and was not refused", where, ids, regexes)
		return "refused"
	}
	require.False(t, refused, "%s names no foreign id, and was refused: %v", where, err)
	out, err := m.AppendTo(nil, v)
	require.NoError(t, err, where)
	after, _, err := dm.Decode(out, v)
	require.NoError(t, err, where)
	walkNamed(spec, before, v, func(path, entity string, a dynamic.Value, b *dynamic.Value) {
		if entity == "topicId" || a.Null || a.Str == "" {
			return
		}
		require.Equal(t, "t."+a.Str, b.Str, "%s: %s (%s) is not prefixed", where, path, entity)
	}, after)
	return "prefixed"
}

// checkResponse runs a response whose names are all another tenant's (they
// lack the prefix) through the tenant: refused, or relayed naming none.
func checkResponse(t *testing.T, spec *schema.Spec, dm *dynamic.Message, src []byte, before *dynamic.Struct, v int16, where string) string {
	tenant := newTenant("t.")
	if _, decoded := tenant.Wants(spec.APIKey, v); !decoded {
		walkNamed(spec, before, v, func(path, entity string, _ dynamic.Value, _ *dynamic.Value) {
			require.Equal(t, "topicId", entity, "%s: left undecoded, and %s names a %s", where, path, entity)
		}, nil)
		return "response undecoded"
	}
	m := kafkamsg.NewResponse(spec.APIKey)
	_, err := m.Decode(src, v)
	require.NoError(t, err, where)
	x := &proxy.Exchange{Header: frames.RequestHeader{APIKey: spec.APIKey, APIVersion: v}, Response: m, ResponseVersion: v}
	if tenant.Response(x) != nil {
		return "response refused"
	}
	out, err := m.AppendTo(nil, v)
	require.NoError(t, err, where)
	after, _, err := dm.Decode(out, v)
	require.NoError(t, err, where)
	walkNamed(spec, after, v, func(path, entity string, val dynamic.Value, _ *dynamic.Value) {
		if entity != "topicId" && !val.Null && val.Str != "" {
			t.Fatalf("%s: %s (%s) relays another tenant's %q", where, path, entity, val.Str)
		}
	}, nil)
	return "response relayed"
}

// walkNamed calls fn for every value of s at version that names an entity
// (and, where regexes are looked for, the regex fields), with the value at
// the same place in other when given (other has the same shape).
func walkNamed(spec *schema.Spec, s *dynamic.Struct, v int16, fn func(path, entity string, val dynamic.Value, same *dynamic.Value), other *dynamic.Struct) {
	var walk func(prefix string, a, b *dynamic.Struct, depth int)
	walk = func(prefix string, a, b *dynamic.Struct, depth int) {
		if a == nil || depth > 64 {
			return
		}
		for i, f := range a.Def.Fields {
			if !f.Versions.Contains(v) {
				continue
			}
			path := prefix + f.Name
			if f.Type.Array {
				path += "[]"
			}
			entity := fieldEntity(spec.Name+" "+path, f, a)
			if entity == "" && !isRegex(spec.Name+" "+path) && f.Type.Kind != schema.KindStruct {
				continue
			}
			va := a.Fields[i]
			var vb *dynamic.Value
			if b != nil {
				vb = &b.Fields[i]
			}
			each(va, vb, func(ea dynamic.Value, eb *dynamic.Value) {
				if f.Type.Kind == schema.KindStruct {
					var sb *dynamic.Struct
					if eb != nil {
						sb = eb.Struct
					}
					walk(path+".", ea.Struct, sb, depth+1)
					return
				}
				fn(spec.Name+" "+path, entity, ea, eb)
			})
		}
	}
	walk("", s, other, 0)
}

// isRegex reports whether the field at path is a regex the tenant refuses
// (tenantCheck).
func isRegex(path string) bool {
	return strings.HasSuffix(path, "Request SubscribedTopicRegex") || strings.HasSuffix(path, "Request TransactionalIdPattern")
}

// each calls fn for a value, or for each element of an array value.
func each(a dynamic.Value, b *dynamic.Value, fn func(dynamic.Value, *dynamic.Value)) {
	if a.Elems == nil {
		fn(a, b)
		return
	}
	for i, e := range a.Elems {
		var eb *dynamic.Value
		if b != nil {
			eb = &b.Elems[i]
		}
		fn(e, eb)
	}
}

// fieldEntity is what a field names, by the specs and unmarkedNames: "" for
// nothing.
func fieldEntity(path string, f *schema.Field, parent *dynamic.Struct) string {
	switch {
	case schema.IsTopicID(f):
		return "topicId"
	case f.EntityType == "topicName" || f.EntityType == "groupId" || f.EntityType == "transactionalId":
		return f.EntityType
	}
	for _, u := range unmarkedNames[path] {
		if u.entity != "" && (u.when == nil || u.when(parent)) {
			return u.entity
		}
	}
	return ""
}

// candidates lists the unmarked string fields of spec that unmarkedNames
// must review.
func candidates(spec *schema.Spec) []string {
	var out []string
	var walk func(prefix string, s *schema.Struct, depth int)
	walk = func(prefix string, s *schema.Struct, depth int) {
		if s == nil || depth > 64 {
			return
		}
		for _, f := range s.Fields {
			path := prefix + f.Name
			if f.Type.Array {
				path += "[]"
			}
			if f.Type.Kind == schema.KindString && f.EntityType == "" && unmarkedCandidate.MatchString(f.Name) {
				out = append(out, spec.Name+" "+path)
			}
			walk(path+".", f.Struct, depth+1)
		}
	}
	walk("", spec.Root, 0)
	sort.Strings(out)
	return slices.Compact(out)
}

// clientSpecs loads the client protocol as kafkamsg holds it: the union of
// the corpus ($KAFKA_SPEC_DIR) and Kafka 4.2.0-rc1
// ($KAFKA_SPEC_RELEASES_DIR), as generate.sh reads them.
func clientSpecs(t *testing.T) []*schema.Spec {
	spec := os.Getenv("KAFKA_SPEC_DIR")
	if spec == "" {
		spec = "../../../shared/kafka-spec"
	}
	releases := os.Getenv("KAFKA_SPEC_RELEASES_DIR")
	if releases == "" {
		releases = "../../../shared/kafka-spec-releases"
	}
	const folder = "clients/src/main/resources/common/message"
	var folders [][]*schema.Spec
	for _, dir := range []string{filepath.Join(spec, folder), filepath.Join(releases, "4.2.0-rc1", folder)} {
		if _, err := os.Stat(dir); err != nil {
			t.Skipf("no Kafka spec files in %s (set KAFKA_SPEC_DIR and KAFKA_SPEC_RELEASES_DIR)", dir)
		}
		specs, err := schema.LoadDir(dir)
		require.NoError(t, err)
		folders = append(folders, specs)
	}
	specs, err := schema.Union(folders...)
	require.NoError(t, err)
	return specs
}
