package gomodel

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestGoName(t *testing.T) {
	for spec, want := range map[string]string{
		"TopicId": "TopicID", "timeoutMs": "TimeoutMs", "ClientId": "ClientID", "ProducerIds": "ProducerIDs",
		"ApiKeys": "APIKeys", "Uuid": "UUID", "V0Host": "V0Host", "ZkMigrationReady": "ZkMigrationReady",
		"myUint16": "MyUint16", "HTTPServer": "HTTPServer", "isKRaftController": "IsKRaftController",
		"Acls": "ACLs",
	} {
		assert.Equal(t, want, GoName(spec), spec)
	}
}

func TestFileName(t *testing.T) {
	for spec, want := range map[string]string{
		"FetchRequest": "fetch_request.go", "ProbeTest": "probe_test_gen.go",
		"ProbeWindows": "probe_windows_gen.go", "ProbeAmd64": "probe_amd64_gen.go",
		"ApiVersionsResponse": "api_versions_response.go",
	} {
		assert.Equal(t, want, FileName(spec), spec)
	}
}
