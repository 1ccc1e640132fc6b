// Package acl is Kafka's authorization model at the proxy: ACLs naming a
// principal, a resource (type, pattern, name), an operation and a
// permission, decided as Kafka's StandardAuthorizer decides them (see
// docs/protocol.md, "Authorization"), and a proxy filter that checks every
// request as Kafka's broker checks it (apis.go), with names as the tenant
// sees them (put the filter before the Tenant filter, nearer the client).
//
// The principal of a connection comes from a function of proxy.ConnInfo,
// so that whatever authenticates the client (TLS, SASL at the proxy) plugs
// in without this package knowing how.
package acl

import (
	"fmt"
	"strings"
)

// ResourceType is what an ACL applies to; the values are Kafka's codes.
type ResourceType int8

// Kafka's resource types that the proxy checks.
const (
	ResourceTopic           ResourceType = 2
	ResourceGroup           ResourceType = 3
	ResourceCluster         ResourceType = 4
	ResourceTransactionalID ResourceType = 5
)

// ClusterName is the one name of the cluster resource, as Kafka names it.
const ClusterName = "kafka-cluster"

var resourceNames = map[ResourceType]string{
	ResourceTopic: "topic", ResourceGroup: "group", ResourceCluster: "cluster", ResourceTransactionalID: "transactionalId",
}

func (r ResourceType) String() string {
	if s, ok := resourceNames[r]; ok {
		return s
	}
	return fmt.Sprintf("ResourceType(%d)", int8(r))
}

// PatternType says how an ACL's name matches a resource's.
type PatternType int8

// Kafka's pattern types (codes as Kafka's). A literal "*" matches every name.
const (
	PatternLiteral  PatternType = 3
	PatternPrefixed PatternType = 4
)

// Wildcard is the literal name that matches every resource of its type, and
// the principal that matches every principal.
const Wildcard = "*"

// Operation is what a request does to a resource; the values are Kafka's
// codes.
type Operation int8

// Kafka's operations.
const (
	OpAll             Operation = 2
	OpRead            Operation = 3
	OpWrite           Operation = 4
	OpCreate          Operation = 5
	OpDelete          Operation = 6
	OpAlter           Operation = 7
	OpDescribe        Operation = 8
	OpClusterAction   Operation = 9
	OpDescribeConfigs Operation = 10
	OpAlterConfigs    Operation = 11
	OpIdempotentWrite Operation = 12
	OpCreateTokens    Operation = 13
	OpDescribeTokens  Operation = 14
	OpTwoPhaseCommit  Operation = 15
)

var operationNames = map[Operation]string{
	OpAll: "all", OpRead: "read", OpWrite: "write", OpCreate: "create", OpDelete: "delete", OpAlter: "alter",
	OpDescribe: "describe", OpClusterAction: "clusterAction", OpDescribeConfigs: "describeConfigs",
	OpAlterConfigs: "alterConfigs", OpIdempotentWrite: "idempotentWrite", OpCreateTokens: "createTokens",
	OpDescribeTokens: "describeTokens", OpTwoPhaseCommit: "twoPhaseCommit",
}

func (o Operation) String() string {
	if s, ok := operationNames[o]; ok {
		return s
	}
	return fmt.Sprintf("Operation(%d)", int8(o))
}

// grants reports whether an ALLOW ACL for o allows the operation want: the
// same operation, ALL, or (docs/protocol.md, "Authorization") an operation
// implying it. A DENY ACL denies only its own operation or, for ALL, every
// one.
func (o Operation) grants(want Operation) bool {
	if o == want || o == OpAll {
		return true
	}
	switch want {
	case OpDescribe:
		return o == OpRead || o == OpWrite || o == OpDelete || o == OpAlter
	case OpDescribeConfigs:
		return o == OpAlterConfigs
	}
	return false
}

// Permission is whether an ACL allows or denies.
type Permission int8

// Kafka's permission types (codes as Kafka's).
const (
	Deny  Permission = 2
	Allow Permission = 3
)

func (p Permission) String() string {
	switch p {
	case Deny:
		return "deny"
	case Allow:
		return "allow"
	}
	return fmt.Sprintf("Permission(%d)", int8(p))
}

// ACL is one rule. Principal is a name as the identity layer gives it
// ("alice"; Kafka's "User:alice" is read as the same), or "*" for every
// principal.
type ACL struct {
	Principal    string
	ResourceType ResourceType
	PatternType  PatternType
	Name         string
	Operations   []Operation
	Permission   Permission
}

// Check reports the first thing wrong with the ACL, naming the field.
func (a ACL) Check() error {
	if PrincipalName(a.Principal) == "" {
		return fmt.Errorf("principal is empty (give a name, or %q for every principal)", Wildcard)
	}
	if _, ok := resourceNames[a.ResourceType]; !ok {
		return fmt.Errorf("resourceType %d is not one of topic, group, cluster, transactionalId", a.ResourceType)
	}
	switch a.PatternType {
	case PatternLiteral:
	case PatternPrefixed:
		if a.Name == Wildcard {
			return fmt.Errorf("name %q with patternType prefixed: the wildcard is a literal name", Wildcard)
		}
	default:
		return fmt.Errorf("patternType %d is not literal or prefixed", a.PatternType)
	}
	if a.Name == "" {
		return fmt.Errorf("name is empty (give a name, a prefix, or %q)", Wildcard)
	}
	if a.ResourceType == ResourceCluster && a.Name != ClusterName && a.Name != Wildcard {
		return fmt.Errorf("name %q: the cluster resource's name is %q", a.Name, ClusterName)
	}
	if len(a.Operations) == 0 {
		return fmt.Errorf("operations is empty")
	}
	for _, o := range a.Operations {
		if _, ok := operationNames[o]; !ok {
			return fmt.Errorf("operation %d is not one of Kafka's", o)
		}
	}
	if a.Permission != Allow && a.Permission != Deny {
		return fmt.Errorf("permission %d is not allow or deny", a.Permission)
	}
	return nil
}

// PrincipalName is a principal without Kafka's "User:" type prefix.
func PrincipalName(p string) string { return strings.TrimPrefix(p, "User:") }

// ParseResourceType reads a resource type's name as configurations write it
// (topic, group, cluster, transactionalId; any case).
func ParseResourceType(s string) (ResourceType, error) {
	for t, n := range resourceNames {
		if strings.EqualFold(s, n) {
			return t, nil
		}
	}
	return 0, fmt.Errorf("resource type %q is not one of topic, group, cluster, transactionalId", s)
}

// ParsePatternType reads literal or prefixed (any case); "" is literal.
func ParsePatternType(s string) (PatternType, error) {
	switch strings.ToLower(s) {
	case "", "literal":
		return PatternLiteral, nil
	case "prefixed":
		return PatternPrefixed, nil
	}
	return 0, fmt.Errorf("pattern type %q is not literal or prefixed", s)
}

// ParseOperation reads an operation's name (read, describeConfigs,
// DESCRIBE_CONFIGS: any case, underscores ignored).
func ParseOperation(s string) (Operation, error) {
	want := strings.ReplaceAll(s, "_", "")
	for o, n := range operationNames {
		if strings.EqualFold(want, n) {
			return o, nil
		}
	}
	return 0, fmt.Errorf("operation %q is not one of Kafka's (read, write, create, delete, alter, describe, clusterAction, describeConfigs, alterConfigs, idempotentWrite, createTokens, describeTokens, twoPhaseCommit, all)", s)
}

// ParsePermission reads allow or deny (any case).
func ParsePermission(s string) (Permission, error) {
	switch strings.ToLower(s) {
	case "allow":
		return Allow, nil
	case "deny":
		return Deny, nil
	}
	return 0, fmt.Errorf("permission %q is not allow or deny", s)
}
