package plan

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// replacedSpec is a request whose fields exercise each part of the
// replacement rule; the expectations below were written from it by hand.
const replacedSpec = `{
  "apiKey": 99, "type": "request", "name": "ReplacedRequest", "validVersions": "0-9", "flexibleVersions": "none",
  "fields": [
    { "name": "GroupId", "type": "string", "versions": "0-7", "entityType": "groupId" },
    { "name": "Topics", "type": "[]Topic", "versions": "0-7", "fields": [
      { "name": "Name", "type": "string", "versions": "0-7" }
    ]},
    { "name": "Groups", "type": "[]Group", "versions": "8+", "fields": [
      { "name": "GroupId", "type": "string", "versions": "8+", "entityType": "groupId" },
      { "name": "Topics", "type": "[]GroupTopic", "versions": "8+", "fields": [
        { "name": "Name", "type": "string", "versions": "8+" }
      ]}
    ]},
    { "name": "Key", "type": "string", "versions": "0-3" },
    { "name": "CoordinatorKeys", "type": "[]string", "versions": "4+" },
    { "name": "Offset", "type": "int64", "versions": "1+" },
    { "name": "OldStyleOffsets", "type": "[]int64", "versions": "0" },
    { "name": "Host", "type": "string", "versions": "0-2" },
    { "name": "PrimaryHost", "type": "string", "versions": "3+" },
    { "name": "BackupHost", "type": "string", "versions": "3+" },
    { "name": "Added", "type": "int32", "versions": "5+" },
    { "name": "Kept", "type": "int32", "versions": "0+" },
    { "name": "TopicName", "type": "string", "versions": "0-6", "entityType": "topicName" },
    { "name": "TopicId", "type": "uuid", "versions": "7+" }
  ]
}`

// TestReplacements pins which field replaces each field outside its
// versions: by entity type (GroupId → Groups, whose struct has a groupId),
// by kind and name (Key → CoordinatorKeys, Offset ← OldStyleOffsets), by a
// struct holding a field of the same name (Topics → Groups), a topic name
// by a topic id and back (TopicName → TopicId, KIP-516), none where two
// fields qualify (Host: PrimaryHost and BackupHost) or none exists (Added).
func TestReplacements(t *testing.T) {
	spec, err := schema.Load("ReplacedRequest.json", []byte(replacedSpec))
	require.NoError(t, err)
	got := map[string]string{}
	for _, f := range Build(spec, Options{}).Top.Fields {
		got[f.Schema.Name] = describeReplacements(f.Replaced)
	}
	assert.Equal(t, map[string]string{
		"GroupId":         "after=Groups",
		"Topics":          "after=Groups",
		"Groups":          "",
		"Key":             "after=CoordinatorKeys",
		"CoordinatorKeys": "",
		"Offset":          "before=OldStyleOffsets",
		"OldStyleOffsets": "",
		"Host":            "",
		"PrimaryHost":     "",
		"BackupHost":      "",
		"Added":           "",
		"Kept":            "",
		"TopicName":       "after=TopicId",
		"TopicId":         "before=TopicName",
	}, got)
}

func describeReplacements(r Replacements) string {
	var parts []string
	if r.Before != nil {
		parts = append(parts, fmt.Sprintf("before=%s", r.Before.Name))
	}
	if r.After != nil {
		parts = append(parts, fmt.Sprintf("after=%s", r.After.Name))
	}
	return strings.Join(parts, " ")
}
