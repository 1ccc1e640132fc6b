package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
)

// secretTopic is tenant A's topic as A names it, and secretRecords how many
// records A writes to it.
const (
	secretTopic   = "secret"
	secretRecords = 5
)

// attempt is one attack through the gateway and what came of it.
type attempt struct {
	Name     string
	ClientID string // the connection's client id in the broker's stats
	// AtProxy: the proxy must answer it itself, so the broker must see no
	// request of ClientID's (checked in the broker's stats at the end).
	AtProxy bool
	Held    bool   // refused, or kept inside the attacker's own cluster
	Leaked  bool   // the attacker was given another tenant's records
	Detail  string // what the proxy answered
	// Mechanism is the SASL mechanism an unauthenticated attempt tried, ""
	// when it got no further than TLS or its first frame: the label it
	// must be counted under in the proxy's authentication failures.
	Mechanism string
}

// expectedTopic is a topic the broker must hold at the end: the records of
// the scenario rule for Name (the name its tenant used), N of them.
type expectedTopic struct {
	Name string
	N    int
}

// attackOutcome is what the attacks by authenticated tenants did.
type attackOutcome struct {
	Attempts []attempt
	// SecretID is the id of A's topic that A was shown, which the broker
	// must still give tenant-a.secret at the end.
	SecretID runtime.UUID
	// Topics are the topics the attacks leave at the broker, by their
	// name there.
	Topics   map[string]expectedTopic
	Problems []string
}

// crossTenant sets up tenant A's topic through the gateway (created,
// secretRecords records written, its id read, and read back by id as a
// control that reading by id works at all), then lets tenant B try to read,
// delete and write it by id and by name, each attempt on a connection of
// its own. Then, when other is not nil, a tenant that is no super user but
// may do everything in its own cluster tries A's id too: the ACL filter
// refuses it the versions that name topics by id.
func crossTenant(ctx context.Context, d gatewayDialer, a, b gatewayTenant, other *gatewayTenant) *attackOutcome {
	out := &attackOutcome{Topics: map[string]expectedTopic{}}
	problem := func(format string, args ...any) *attackOutcome {
		out.Problems = append(out.Problems, "cross-tenant setup: "+fmt.Sprintf(format, args...))
		return out
	}
	owner, err := d.dial(ctx, a.Name, a.Password, "SCRAM-SHA-512", "gateway-tenant-a")
	if err != nil {
		return problem("tenant A cannot log in: %v", err)
	}
	defer owner.Close()
	if code, err := createTopic(ctx, owner, secretTopic); err != nil || code != 0 {
		return problem("tenant A creates %s: code %d, %v", secretTopic, code, err)
	}
	if code, err := produceTo(ctx, owner, secretTopic, secretRecords); err != nil || code != 0 {
		return problem("tenant A writes to %s: code %d, %v", secretTopic, code, err)
	}
	out.Topics[a.Prefix()+secretTopic] = expectedTopic{secretTopic, secretRecords}
	t, err := metadataOf(ctx, owner, secretTopic, runtime.UUID{}, false)
	if err != nil || t.ErrorCode != 0 || t.TopicID == (runtime.UUID{}) {
		return problem("tenant A's metadata of %s: %+v, %v", secretTopic, t, err)
	}
	out.SecretID = t.TopicID
	for _, v := range []int16{13, 17} {
		code, n, err := fetchTopic(ctx, owner, v, "", out.SecretID)
		if err != nil || code != 0 || n == 0 {
			return problem("control: tenant A's own Fetch v%d by id got code %d and %d bytes of records (%v): the refusals below would prove nothing", v, code, n, err)
		}
	}

	victim := a.Prefix() + secretTopic // what B might guess from the broker's naming
	id := out.SecretID
	fetchAttempt := func(v int16, name string, id runtime.UUID) func(*wire.Conn) (attempt, error) {
		return func(c *wire.Conn) (attempt, error) {
			code, n, err := fetchTopic(ctx, c, v, name, id)
			return attempt{Held: code != 0 && n == 0, Leaked: n > 0, Detail: fmt.Sprintf("error code %d, %d bytes of records", code, n)}, err
		}
	}
	attacks := []struct {
		name, slug string
		atProxy    bool
		run        func(*wire.Conn) (attempt, error)
	}{
		{"Fetch v13 by A's topic id", "fetch-v13-by-id", true, fetchAttempt(13, "", id)},
		{"Fetch v17 by A's topic id", "fetch-v17-by-id", true, fetchAttempt(17, "", id)},
		{"DeleteTopics v6 by A's topic id", "delete-v6-by-id", true, func(c *wire.Conn) (attempt, error) {
			code, err := deleteTopic(ctx, c, "", id)
			return attempt{Held: code == codeUnknownTopicID || code == codeClusterAuthorizationFailed, Detail: fmt.Sprintf("error code %d", code)}, err
		}},
		{"Metadata v12 by A's topic id", "metadata-by-id", true, func(c *wire.Conn) (attempt, error) {
			t, err := metadataOf(ctx, c, "", id, false)
			if err != nil {
				return attempt{}, err
			}
			return attempt{Held: t.ErrorCode != 0 && !t.Name.Valid && len(t.Partitions) == 0, Leaked: t.Name.Valid,
				Detail: fmt.Sprintf("error code %d, name %q, %d partitions", t.ErrorCode, t.Name.Value, len(t.Partitions))}, nil
		}},
		{"Fetch v12 by the name " + victim, "fetch-by-name", false, fetchAttempt(12, victim, runtime.UUID{})},
		{"Metadata v12 by the name " + victim, "metadata-by-name", false, func(c *wire.Conn) (attempt, error) {
			t, err := metadataOf(ctx, c, victim, runtime.UUID{}, false)
			if err != nil {
				return attempt{}, err
			}
			return attempt{Held: t.ErrorCode == codeUnknownTopicOrPartition && t.TopicID != id, Leaked: t.TopicID == id,
				Detail: fmt.Sprintf("error code %d", t.ErrorCode)}, nil
		}},
		{"DeleteTopics v5 by the name " + victim, "delete-by-name", false, func(c *wire.Conn) (attempt, error) {
			code, err := deleteTopic(ctx, c, victim, runtime.UUID{})
			return attempt{Held: code == codeUnknownTopicOrPartition, Detail: fmt.Sprintf("error code %d", code)}, err
		}},
		// The prefix makes the name B's own (tenant-b.tenant-a.secret),
		// where the broker creates it: held when A's topic is untouched
		// and the records are there instead (checked on the broker).
		{"Produce v9 by the name " + victim, "produce-by-name", false, func(c *wire.Conn) (attempt, error) {
			code, err := produceTo(ctx, c, victim, secretRecords)
			if err == nil && code == 0 {
				out.Topics[b.Prefix()+victim] = expectedTopic{victim, secretRecords}
				return attempt{Held: true, Detail: "written to " + b.Prefix() + victim + ", B's own cluster"}, nil
			}
			return attempt{Held: err == nil, Detail: fmt.Sprintf("error code %d", code)}, err
		}},
	}
	attacker := make([]gatewayTenant, len(attacks))
	for i := range attacks {
		attacker[i] = b
	}
	if other != nil {
		for _, at := range attacks[:3] { // by id: Fetch v13, v17, DeleteTopics v6
			at.slug = "acl-" + at.slug
			attacks, attacker = append(attacks, at), append(attacker, *other)
		}
	}
	for i, at := range attacks {
		clientID := "gateway-attack-" + at.slug
		who := attacker[i]
		c, err := d.dial(ctx, who.Name, who.Password, "SCRAM-SHA-256", clientID)
		if err != nil {
			out.Problems = append(out.Problems, fmt.Sprintf("%s cannot log in for %q: %v", who.Name, at.name, err))
			continue
		}
		res, err := at.run(c)
		c.Close()
		res.Name, res.ClientID, res.AtProxy = who.Name+": "+at.name, clientID, at.atProxy
		if err != nil {
			// The proxy closing the connection refuses the attempt too.
			res.Held, res.Detail = !res.Leaked && closedByPeer(err), "no answer: "+err.Error()
		}
		out.Attempts = append(out.Attempts, res)
	}
	return out
}

// aclRefusals are the attempts of a principal with no ACL on topics of its
// own cluster: each must be answered TOPIC_AUTHORIZATION_FAILED by the
// proxy, and the broker must see nothing of the topic.
func aclRefusals(ctx context.Context, d gatewayDialer, nobody gatewayTenant) ([]attempt, []string) {
	var out []attempt
	var problems []string
	// Metadata and Fetch are forwarded without the refused topic (the
	// proxy merges the broker's answer for the rest, here none, with its
	// refusals), so their client ids do reach the broker: that the topic
	// did not shows in the broker's topics (auto-creation was asked).
	attacks := []struct {
		name, slug string
		atProxy    bool
		run        func(*wire.Conn) (int16, error)
	}{
		{"Metadata v12 of " + secretTopic + " with auto-creation", "metadata", false, func(c *wire.Conn) (int16, error) {
			t, err := metadataOf(ctx, c, secretTopic, runtime.UUID{}, true)
			if err != nil {
				return 0, err
			}
			return t.ErrorCode, nil
		}},
		{"CreateTopics v7 " + secretTopic, "create", true, func(c *wire.Conn) (int16, error) { return createTopic(ctx, c, secretTopic) }},
		{"Produce v9 to " + secretTopic, "produce", true, func(c *wire.Conn) (int16, error) { return produceTo(ctx, c, secretTopic, 2) }},
		{"Fetch v12 of " + secretTopic, "fetch", false, func(c *wire.Conn) (int16, error) {
			code, _, err := fetchTopic(ctx, c, 12, secretTopic, runtime.UUID{})
			return code, err
		}},
	}
	for _, at := range attacks {
		clientID := "gateway-acl-" + at.slug
		c, err := d.dial(ctx, nobody.Name, nobody.Password, "PLAIN", clientID)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s cannot log in for %q: %v", nobody.Name, at.name, err))
			continue
		}
		code, err := at.run(c)
		c.Close()
		res := attempt{Name: nobody.Name + " (no ACL): " + at.name, ClientID: clientID, AtProxy: at.atProxy,
			Held: err == nil && code == codeTopicAuthorizationFailed, Detail: fmt.Sprintf("error code %d", code)}
		if err != nil {
			res.Detail = "no answer: " + err.Error()
		}
		out = append(out, res)
	}
	return out, problems
}

// closedByPeer reports whether err is the connection ending rather than a
// local mistake (an encoding error, a context that ran out).
func closedByPeer(err error) bool {
	return err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled)
}
