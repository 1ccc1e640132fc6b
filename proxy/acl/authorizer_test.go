package acl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func allow(principal string, rt ResourceType, pt PatternType, name string, ops ...Operation) ACL {
	return ACL{Principal: principal, ResourceType: rt, PatternType: pt, Name: name, Operations: ops, Permission: Allow}
}

func deny(principal string, rt ResourceType, pt PatternType, name string, ops ...Operation) ACL {
	a := allow(principal, rt, pt, name, ops...)
	a.Permission = Deny
	return a
}

func TestAuthorize(t *testing.T) {
	policy := Policy{
		SuperUsers: []string{"User:root"},
		ACLs: []ACL{
			allow("carol", ResourceTopic, PatternPrefixed, "public.", OpRead),
			allow("carol", ResourceTopic, PatternLiteral, "orders", OpWrite),
			deny("carol", ResourceTopic, PatternLiteral, "public.secret", OpRead),
			allow("*", ResourceTopic, PatternLiteral, "shared", OpDescribe),
			allow("dave", ResourceTopic, PatternLiteral, "*", OpAll),
			deny("dave", ResourceTopic, PatternPrefixed, "private.", OpAll),
			allow("erin", ResourceGroup, PatternLiteral, "g1", OpRead),
			allow("erin", ResourceTopic, PatternLiteral, "cfg", OpAlterConfigs),
			deny("erin", ResourceTopic, PatternLiteral, "cfg", OpRead),
			allow("frank", ResourceCluster, PatternLiteral, ClusterName, OpCreate),
			allow("gina", ResourceTransactionalID, PatternPrefixed, "tx-", OpWrite),
		},
	}
	a, err := NewAuthorizer(policy)
	require.NoError(t, err)
	tests := []struct {
		name      string
		principal string
		rt        ResourceType
		resource  string
		op        Operation
		want      bool
	}{
		{"prefixed allow", "carol", ResourceTopic, "public.news", OpRead, true},
		{"READ implies DESCRIBE", "carol", ResourceTopic, "public.news", OpDescribe, true},
		{"READ does not imply WRITE", "carol", ResourceTopic, "public.news", OpWrite, false},
		{"WRITE implies DESCRIBE", "carol", ResourceTopic, "orders", OpDescribe, true},
		{"deny wins over prefixed allow", "carol", ResourceTopic, "public.secret", OpRead, false},
		{"a DENY of READ does not deny DESCRIBE", "carol", ResourceTopic, "public.secret", OpDescribe, true},
		{"literal is not prefix", "carol", ResourceTopic, "orders2", OpWrite, false},
		{"wildcard principal", "bob", ResourceTopic, "shared", OpDescribe, true},
		{"DESCRIBE does not imply READ", "bob", ResourceTopic, "shared", OpRead, false},
		{"no ACL on the resource: refused by default", "bob", ResourceTopic, "nobody", OpRead, false},
		{"other principal's ACL", "bob", ResourceTopic, "orders", OpWrite, false},
		{"wildcard name with ALL", "dave", ResourceTopic, "anything", OpDelete, true},
		{"deny ALL by prefix", "dave", ResourceTopic, "private.x", OpDescribe, false},
		{"resource types apart", "dave", ResourceGroup, "anything", OpRead, false},
		{"group", "erin", ResourceGroup, "g1", OpRead, true},
		{"ALTER_CONFIGS implies DESCRIBE_CONFIGS", "erin", ResourceTopic, "cfg", OpDescribeConfigs, true},
		{"ALTER_CONFIGS does not imply DESCRIBE", "erin", ResourceTopic, "cfg", OpDescribe, false},
		{"cluster", "frank", ResourceCluster, ClusterName, OpCreate, true},
		{"transactional id by prefix", "gina", ResourceTransactionalID, "tx-1", OpWrite, true},
		{"transactional id WRITE implies DESCRIBE", "gina", ResourceTransactionalID, "tx-1", OpDescribe, true},
		{"super user", "root", ResourceCluster, ClusterName, OpAlter, true},
		{"super user named with User:", "User:root", ResourceTopic, "private.x", OpRead, true},
		{"User: prefix on the request's principal", "User:carol", ResourceTopic, "orders", OpWrite, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, a.Authorize(tt.principal, tt.rt, tt.resource, tt.op))
		})
	}
}

func TestAllowEveryoneIfNoACLFound(t *testing.T) {
	a, err := NewAuthorizer(Policy{AllowEveryoneIfNoACLFound: true,
		ACLs: []ACL{allow("carol", ResourceTopic, PatternLiteral, "orders", OpRead)}})
	require.NoError(t, err)
	assert.True(t, a.Authorize("bob", ResourceTopic, "unnamed", OpWrite), "no ACL names the topic")
	assert.False(t, a.Authorize("bob", ResourceTopic, "orders", OpRead), "an ACL names the topic, for someone else")
	assert.True(t, a.Authorize("carol", ResourceTopic, "orders", OpRead))
}

func TestReload(t *testing.T) {
	a, err := NewAuthorizer(Policy{ACLs: []ACL{allow("carol", ResourceTopic, PatternLiteral, "orders", OpRead)}})
	require.NoError(t, err)
	require.True(t, a.Authorize("carol", ResourceTopic, "orders", OpRead))
	require.NoError(t, a.Reload(Policy{ACLs: []ACL{deny("carol", ResourceTopic, PatternLiteral, "orders", OpRead)}}))
	assert.False(t, a.Authorize("carol", ResourceTopic, "orders", OpRead))
	err = a.Reload(Policy{ACLs: []ACL{{Principal: "carol"}}})
	require.ErrorContains(t, err, "acls[0]: resourceType 0")
	assert.False(t, a.Authorize("carol", ResourceTopic, "orders", OpRead), "a bad policy keeps the old one")
}

func TestAuthorizeAnyTopic(t *testing.T) {
	a, err := NewAuthorizer(Policy{ACLs: []ACL{
		allow("carol", ResourceTopic, PatternPrefixed, "a.", OpWrite),
		allow("dave", ResourceTopic, PatternLiteral, "x", OpWrite),
		deny("dave", ResourceTopic, PatternLiteral, "*", OpWrite),
	}})
	require.NoError(t, err)
	assert.True(t, a.AuthorizeAnyTopic("carol", OpWrite))
	assert.False(t, a.AuthorizeAnyTopic("carol", OpRead))
	assert.False(t, a.AuthorizeAnyTopic("dave", OpWrite), "denied on every topic")
	assert.False(t, a.AuthorizeAnyTopic("erin", OpWrite))
}

func TestACLCheck(t *testing.T) {
	ok := allow("carol", ResourceTopic, PatternLiteral, "orders", OpRead)
	tests := []struct {
		name string
		edit func(*ACL)
		want string
	}{
		{"no principal", func(a *ACL) { a.Principal = "" }, "principal is empty"},
		{"no name", func(a *ACL) { a.Name = "" }, "name is empty"},
		{"bad resource", func(a *ACL) { a.ResourceType = 9 }, "resourceType 9"},
		{"bad pattern", func(a *ACL) { a.PatternType = 1 }, "patternType 1"},
		{"prefixed wildcard", func(a *ACL) { a.PatternType, a.Name = PatternPrefixed, "*" }, "the wildcard is a literal name"},
		{"cluster name", func(a *ACL) { a.ResourceType = ResourceCluster }, `the cluster resource's name is "kafka-cluster"`},
		{"no operations", func(a *ACL) { a.Operations = nil }, "operations is empty"},
		{"bad operation", func(a *ACL) { a.Operations = []Operation{1} }, "operation 1"},
		{"bad permission", func(a *ACL) { a.Permission = 0 }, "permission 0"},
	}
	require.NoError(t, ok.Check())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := ok
			tt.edit(&a)
			require.ErrorContains(t, a.Check(), tt.want)
		})
	}
}

func TestParse(t *testing.T) {
	op, err := ParseOperation("DESCRIBE_CONFIGS")
	require.NoError(t, err)
	assert.Equal(t, OpDescribeConfigs, op)
	op, err = ParseOperation("idempotentWrite")
	require.NoError(t, err)
	assert.Equal(t, OpIdempotentWrite, op)
	_, err = ParseOperation("fly")
	require.ErrorContains(t, err, `operation "fly"`)
	rt, err := ParseResourceType("TransactionalId")
	require.NoError(t, err)
	assert.Equal(t, ResourceTransactionalID, rt)
	_, err = ParseResourceType("user")
	require.ErrorContains(t, err, `resource type "user"`)
	pt, err := ParsePatternType("")
	require.NoError(t, err)
	assert.Equal(t, PatternLiteral, pt)
	_, err = ParsePatternType("match")
	require.ErrorContains(t, err, `pattern type "match"`)
	p, err := ParsePermission("DENY")
	require.NoError(t, err)
	assert.Equal(t, Deny, p)
}

func TestAuthorizeAllocatesNothing(t *testing.T) {
	a, err := NewAuthorizer(Policy{ACLs: []ACL{
		allow("carol", ResourceTopic, PatternPrefixed, "public.", OpRead),
		deny("carol", ResourceTopic, PatternLiteral, "public.secret", OpRead),
		allow("*", ResourceTopic, PatternLiteral, "*", OpDescribe),
	}})
	require.NoError(t, err)
	name := string([]byte("public.news")) // not a constant the compiler could fold
	allocs := testing.AllocsPerRun(1000, func() {
		if !a.Authorize("User:carol", ResourceTopic, name, OpRead) {
			t.Fatal("refused")
		}
	})
	assert.Zero(t, allocs)
}
