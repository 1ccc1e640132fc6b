package proxy_test

import (
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/proxy"
	"github.com/kafkagen/kafkagen/proxy/internal/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/frames"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// pipelined is how many requests the test sends before reading any answer.
const pipelined = 400

// produceVersion is the Produce version the test speaks (flexible, names
// topics by name).
const produceVersion = 11

// The example's filter under pipelining: hundreds of Produce requests, each
// to its own audit topic, all sent before the broker answers any. Each
// answer must name the audit topic of its own request. A filter that keeps
// the request's strings as they are (pointing into the frame, which the
// next requests overwrite) answers with wrong names, and the test sees it.
func TestRefuseAuditUnderPipelining(t *testing.T) {
	tests := []struct {
		name      string
		keep      func(string) string
		wantWrong bool
	}{
		{"the topic copied (strings.Clone)", strings.Clone, false},
		{"the mistake: the topic kept aliased", func(s string) string { return s }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			broker := startHoldingBroker(t, pipelined)
			p, err := proxy.New(proxy.Config{
				Listen: "127.0.0.1:0", Upstream: []string{broker},
				NewRequest: kafkamsg.NewRequest, NewResponse: kafkamsg.NewResponse,
				Filters: []proxy.Filter{refuseAudit{keep: tt.keep}},
			})
			require.NoError(t, err)
			require.NoError(t, p.Start())
			t.Cleanup(func() { require.NoError(t, p.Close()) })

			wrong := exchangePipelined(t, p.Addr().String())
			if tt.wantWrong {
				require.NotEmpty(t, wrong, "aliased topic names must come back wrong once later requests overwrite the frame")
				t.Logf("%d of %d answers wrong with the aliased topic (first: %s)", len(wrong), pipelined, wrong[0])
			} else {
				assert.Empty(t, wrong, "every answer names its own request's audit topic")
			}
		})
	}
}

// exchangePipelined writes the pipelined requests in one go, reads every
// answer and returns the wrong ones.
func exchangePipelined(t *testing.T, addr string) []string {
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(30*time.Second)))
	payload := make([]byte, 1024) // so the requests pass through the proxy's buffers several times
	var out []byte
	for i := range pipelined {
		req := produceTo(fmt.Sprintf("orders.%04d", i), fmt.Sprintf("audit.%04d", i))
		req.TopicData[0].PartitionData[0].Records = payload
		h := frames.RequestHeader{APIKey: kafkamsg.APIKeyProduce, APIVersion: produceVersion, CorrelationID: int32(i), ClientID: runtime.NewNullString("pipeliner")}
		out, err = frames.AppendRequest(out, &h, req)
		require.NoError(t, err)
	}
	_, err = conn.Write(out)
	require.NoError(t, err)

	fr := frames.NewFrameReader(conn, 0)
	resp := kafkamsg.NewProduceResponse()
	var wrong []string
	for i := range pipelined {
		frame, err := fr.Next()
		require.NoError(t, err, "answer %d", i)
		var h frames.ResponseHeader
		n, err := h.Decode(frame, resp.HeaderVersion(produceVersion), false)
		require.NoError(t, err)
		_, err = resp.Decode(frame[n:], produceVersion)
		require.NoError(t, err)
		require.Equal(t, int32(i), h.CorrelationID, "answers come in order")
		want := fmt.Sprintf("audit.%04d", i)
		require.Len(t, resp.Responses, 2, "answer %d: the broker's topic and the filter's", i)
		audit := resp.Responses[1]
		assert.Equal(t, fmt.Sprintf("orders.%04d", i), resp.Responses[0].Name, "the broker answers the topic it was sent")
		assert.Equal(t, kerrors.TopicAuthorizationFailed.Code, audit.PartitionResponses[0].ErrorCode)
		if audit.Name != want {
			wrong = append(wrong, fmt.Sprintf("answer %d names %q, not %q", i, audit.Name, want))
		}
	}
	return wrong
}

// startHoldingBroker serves one connection on 127.0.0.1 as a broker that
// reads n Produce requests before it answers any, so that every request has
// passed through the proxy before the first response comes back: a filter
// that kept aliased strings then reads bytes later requests wrote.
func startHoldingBroker(t *testing.T, n int) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	done := make(chan error, 1)
	go func() { done <- holdThenAnswer(ln, n) }()
	t.Cleanup(func() {
		ln.Close()
		select {
		case err := <-done:
			assert.NoError(t, err, "the broker")
		case <-time.After(30 * time.Second):
			t.Error("the broker did not end")
		}
	})
	return ln.Addr().String()
}

func holdThenAnswer(ln net.Listener, n int) error {
	conn, err := ln.Accept()
	if err != nil {
		return err
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(30 * time.Second)); err != nil {
		return err
	}
	fr := frames.NewFrameReader(conn, 0)
	var out []byte
	for i := range n {
		frame, err := fr.Next()
		if err != nil {
			return fmt.Errorf("request %d: %w", i, err)
		}
		req := kafkamsg.NewProduceRequest()
		var h frames.RequestHeader
		hn, err := h.Decode(frame, req.HeaderVersion(produceVersion), false)
		if err != nil {
			return err
		}
		if _, err := req.Decode(frame[hn:], h.APIVersion); err != nil {
			return err
		}
		resp := kafkamsg.NewProduceResponse()
		for _, topic := range req.TopicData {
			resp.Responses = append(resp.Responses, kafkamsg.ProduceResponseTopicProduceResponse{Name: topic.Name,
				PartitionResponses: []kafkamsg.ProduceResponsePartitionProduceResponse{*kafkamsg.NewProduceResponsePartitionProduceResponse()}})
		}
		if out, err = frames.AppendResponse(out, h.CorrelationID, resp, h.APIVersion); err != nil {
			return err
		}
	}
	_, err = conn.Write(out)
	return err
}
