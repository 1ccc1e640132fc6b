package schema

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestIsTopicID(t *testing.T) {
	uuid := Type{Kind: KindUUID}
	tests := []struct {
		name  string
		field Field
		want  bool
	}{
		{"TopicId", Field{Name: "TopicId", Type: uuid}, true},
		{"lower case, as in OffsetCommitValue", Field{Name: "topicId", Type: uuid}, true},
		{"a uuid array so named", Field{Name: "SourceTopicId", Type: Type{Kind: KindUUID, Array: true}}, true},
		{"a directory id", Field{Name: "ReplicaDirectoryId", Type: uuid}, false},
		{"a bare Id", Field{Name: "Id", Type: uuid}, false},
		{"an int32 TopicId", Field{Name: "TopicId", Type: Type{Kind: KindInt32}}, false},
		{"a string TopicId", Field{Name: "TopicId", Type: Type{Kind: KindString}}, false},
		{"an entity type of its own wins", Field{Name: "TopicId", Type: uuid, EntityType: "groupId"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, IsTopicID(&tt.field))
		})
	}
}
