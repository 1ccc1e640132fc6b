package wirediff

import (
	"fmt"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// difference is one field of one code on which wire and kerr disagree.
type difference struct {
	code  int16
	field string // "name", "message", "retriable", or "only-kerr" for a code wire lacks
}

// Fields on which wire deliberately differs from kerr (franz-go v1.22.3),
// each with the reason. wire follows Kafka 4.0: names and messages as
// Errors.java has them, retriable as the exception class extends
// RetriableException. The test fails on any difference not listed here and
// on any listed difference that has gone away.
var known = map[difference]string{
	{6, "name"}:    "kerr keeps the name Kafka used before 2.7, NOT_LEADER_FOR_PARTITION",
	{6, "message"}: "kerr keeps the message of the old name",
	{9, "message"}: "kerr has the shorter message Kafka used before 2.7",

	{8, "retriable"}:   "Kafka's BrokerNotAvailableException extends ApiException, not RetriableException; kerr marks it retriable",
	{51, "retriable"}:  "Kafka's ConcurrentTransactionsException extends RetriableException; kerr says not retriable",
	{122, "retriable"}: "Kafka's ShareSessionNotFoundException extends RetriableException; kerr says not retriable",
	{123, "retriable"}: "Kafka's InvalidShareSessionEpochException extends RetriableException; kerr says not retriable",

	{124, "message"}: "kerr has an earlier wording (\"The coordinator rejected ... the state epoch ...\"); wire has the share coordinator's",

	// kerr rewords or trims these; wire keeps Kafka's text.
	{10, "message"}:  "kerr drops the final period",
	{24, "message"}:  "kerr: \"The configured groupID is invalid.\"",
	{29, "message"}:  "kerr prefixes \"Not authorized to access topics\"",
	{30, "message"}:  "kerr prefixes \"Not authorized to access group\"",
	{47, "message"}:  "kerr: \"an operation\" for \"to produce\"",
	{53, "message"}:  "kerr: \"Transactional ID\" for \"Transactional Id\"",
	{59, "message"}:  "kerr: \"producerID\" for \"producerId\"",
	{74, "message"}:  "kerr drops the final period",
	{75, "message"}:  "kerr drops the final period",
	{77, "message"}:  "kerr drops the final period",
	{78, "message"}:  "kerr drops the final period",
	{79, "message"}:  "kerr drops the final period",
	{80, "message"}:  "kerr drops the final period",
	{81, "message"}:  "kerr: \"The consumer group has reached its max size\"",
	{83, "message"}:  "kerr drops the final period",
	{84, "message"}:  "kerr drops the final period",
	{87, "message"}:  "kerr rewords the tense (\"has been rejected\")",
	{94, "message"}:  "kerr fixes Kafka's typo \"the either\"",
	{116, "message"}: "kerr drops the final period",

	// Codes Kafka added after 4.0, which wire's 4.0 table does not have.
	{130, "only-kerr"}: "STREAMS_INVALID_TOPOLOGY, Kafka 4.1",
	{131, "only-kerr"}: "STREAMS_INVALID_TOPOLOGY_EPOCH, Kafka 4.1",
	{132, "only-kerr"}: "STREAMS_TOPOLOGY_FENCED, Kafka 4.1",
	{133, "only-kerr"}: "SHARE_SESSION_LIMIT_REACHED, Kafka 4.1",
	{134, "only-kerr"}: "GROUP_DELETION_FAILED, after Kafka 4.0",
	{135, "only-kerr"}: "STREAMS_TOPOLOGY_DESCRIPTION_UPDATE_FAILED, after Kafka 4.0",
	{136, "only-kerr"}: "CONTROLLER_ID_NOT_REGISTERED, after Kafka 4.0",
}

// kerrTable lists kerr's errors by code. kerr maps unknown codes to
// UNKNOWN_SERVER_ERROR, so a code is kerr's when it maps to anything else.
func kerrTable() map[int16]*kerr.Error {
	out := map[int16]*kerr.Error{}
	for c := -32768; c <= 32767; c++ {
		code := int16(c)
		if code == 0 {
			continue
		}
		if e := kerr.TypedErrorForCode(code); e != nil && (e != kerr.UnknownServerError || code == -1) {
			out[code] = e
		}
	}
	return out
}

func TestWireErrorsAgainstKerr(t *testing.T) {
	kt := kerrTable()
	got := map[difference]bool{}
	compared, fields := 0, 0
	for _, w := range kerrors.Errors() {
		k, ok := kt[w.Code]
		if !ok {
			got[difference{w.Code, "only-wire"}] = true
			continue
		}
		compared++
		fields += 3
		if k.Message != w.Name {
			got[difference{w.Code, "name"}] = true
		}
		if k.Description != w.Message {
			got[difference{w.Code, "message"}] = true
		}
		if k.Retriable != w.Retriable {
			got[difference{w.Code, "retriable"}] = true
		}
		// errors.Is works across the two tables' codes.
		assert.Same(t, w, kerrors.ErrorCode(k.Code))
	}
	for code, k := range kt {
		if _, ok := kerrors.LookupError(code); !ok {
			got[difference{code, "only-kerr"}] = true
			assert.ErrorIs(t, kerrors.ErrorCode(code), kerrors.UnknownServerError, "%s: a code wire lacks is UNKNOWN_SERVER_ERROR, as in Kafka 4.0", k.Message)
		}
	}

	var unexplained, gone []string
	for d := range got {
		if _, ok := known[d]; !ok {
			unexplained = append(unexplained, describe(d, kt))
		}
	}
	for d := range known {
		if !got[d] {
			gone = append(gone, describe(d, kt))
		}
	}
	sort.Strings(unexplained)
	sort.Strings(gone)
	assert.Empty(t, unexplained, "differences from kerr that are not explained in known")
	assert.Empty(t, gone, "entries of known that no longer differ: remove them")

	counts := map[string]int{}
	for d := range got {
		counts[d.field]++
	}
	require.Equal(t, 130, len(kerrors.Errors()), "Kafka 4.0 has 130 error codes besides NONE")
	fmt.Printf("wirediff: wire-codes=%d kerr-codes=%d compared=%d fields=%d differences=%d (name %d, message %d, retriable %d, kerr-only %d, wire-only %d) unexplained=%d\n",
		len(kerrors.Errors()), len(kt), compared, fields, len(got), counts["name"], counts["message"], counts["retriable"],
		counts["only-kerr"], counts["only-wire"], len(unexplained)+len(gone))
}

func describe(d difference, kt map[int16]*kerr.Error) string {
	w, _ := kerrors.LookupError(d.code)
	k := kt[d.code]
	switch d.field {
	case "name":
		return fmt.Sprintf("%d name: wire %s, kerr %s", d.code, w.Name, k.Message)
	case "message":
		return fmt.Sprintf("%d %s message: wire %q, kerr %q", d.code, w.Name, w.Message, k.Description)
	case "retriable":
		return fmt.Sprintf("%d %s retriable: wire %v, kerr %v", d.code, w.Name, w.Retriable, k.Retriable)
	case "only-kerr":
		return fmt.Sprintf("%d %s: only in kerr", d.code, k.Message)
	}
	return fmt.Sprintf("%d %s: only in wire", d.code, w.Name)
}
