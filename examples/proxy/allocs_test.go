package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/proxy"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// The id check allocates nothing per request in steady state: a Fetch
// v13 by an id the tenant knows goes through Tenant.Request with no
// allocation (the prefixing of names allocates the prefixed strings, which
// is not the check's).
func TestTenantIDCheckAllocatesNothing(t *testing.T) {
	tenant := newTenant("t.")
	id := runtime.UUID{1, 2, 3}
	md := kafkamsg.NewMetadataResponse()
	md.Topics = []kafkamsg.MetadataResponseTopic{{Name: runtime.NewNullString("t.orders"), TopicID: id}}
	require.NoError(t, tenant.Response(&proxy.Exchange{Header: frames.RequestHeader{APIKey: kafkamsg.APIKeyMetadata, APIVersion: 12},
		Response: md, ResponseVersion: 12}))
	require.True(t, tenant.KnowsTopicID(id), "learned from the tenant's Metadata answer")

	req := fetchByID(id)
	x := &proxy.Exchange{Header: frames.RequestHeader{APIKey: kafkamsg.APIKeyFetch, APIVersion: 13}, Request: req}
	allocs := testing.AllocsPerRun(200, func() {
		if err := tenant.Request(x); err != nil || x.Answered() != nil {
			t.Fatalf("refused its own id: %v", err)
		}
	})
	assert.Zero(t, allocs, "allocations per Fetch v13 through the tenant")
}
