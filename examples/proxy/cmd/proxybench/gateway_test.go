package main

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// A refused Produce or Fetch fails its run: the error codes of the answers
// are read, at every level they sit.
func TestAnswerError(t *testing.T) {
	produce := func(code int16) runtime.APIMessage {
		r := kafkamsg.NewProduceResponse()
		r.Responses = []kafkamsg.ProduceResponseTopicProduceResponse{{PartitionResponses: []kafkamsg.ProduceResponsePartitionProduceResponse{{ErrorCode: code}}}}
		return r
	}
	fetch := func(top, partition int16) runtime.APIMessage {
		r := kafkamsg.NewFetchResponse()
		r.ErrorCode = top
		r.Responses = []kafkamsg.FetchResponseFetchableTopicResponse{{Partitions: []kafkamsg.FetchResponsePartitionData{{ErrorCode: partition}}}}
		return r
	}
	tests := []struct {
		name string
		resp runtime.APIMessage
		want *kerrors.Error // nil: no error
	}{
		{"produce appended", produce(0), nil},
		{"produce by an unknown id", produce(kerrors.UnknownTopicID.Code), kerrors.UnknownTopicID},
		{"fetch read", fetch(0, 0), nil},
		{"fetch session refused", fetch(kerrors.FetchSessionIDNotFound.Code, 0), kerrors.FetchSessionIDNotFound},
		{"fetch partition refused", fetch(0, kerrors.TopicAuthorizationFailed.Code), kerrors.TopicAuthorizationFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := answerError(tt.resp)
			if tt.want == nil {
				assert.NoError(t, err)
				return
			}
			assert.True(t, errors.Is(err, tt.want), "%v is not %v", err, tt.want)
		})
	}
}

// The gateway modes' files: every placeholder filled, the certificate and
// key where the flags and the configuration file point.
func TestGatewayFiles(t *testing.T) {
	f, err := newFiles(t.TempDir())
	require.NoError(t, err)
	for _, m := range gatewayModes {
		text := strings.Join(m.args, " ")
		if m.config != "" {
			path, err := f.configFile(m, "127.0.0.1:9192", "127.0.0.1:9092")
			require.NoError(t, err)
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			text = string(data)
			assert.Contains(t, text, "listen: 127.0.0.1:9192\nupstream: [127.0.0.1:9092]\n", m.name)
		} else {
			text = f.expand(text, "", "")
		}
		for _, p := range []string{"{cert}", "{key}", "{users}", "{listen}", "{upstream}"} {
			assert.NotContains(t, text, p, "%s: %s left", m.name, p)
		}
		if m.tls && !m.relay {
			assert.Contains(t, text, f.cert, m.name)
			assert.Contains(t, text, f.key, m.name)
		}
	}
	users, err := os.ReadFile(f.users)
	require.NoError(t, err)
	assert.Equal(t, benchUser+":"+benchPassword+"\n", string(users))
}

// The resident set is read from /proc in bytes.
func TestRSS(t *testing.T) {
	cmd := exec.Command("sleep", "5")
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	c := &child{name: "sleep", cmd: cmd}
	rss, err := c.rss()
	require.NoError(t, err)
	assert.Greater(t, rss, int64(4096), "at least a page")
	assert.Less(t, rss, int64(1<<30))
}
