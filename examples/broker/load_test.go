package main

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/examples/broker/cmd/brokerload/load"
)

// TestLoadIsLossless runs brokerload's load, scaled down, against a broker
// in this process at both acks: every acknowledged record is read back
// once, in order, at its acknowledged offset. The rate is not checked here
// (make broker-load does, on a broker of its own).
func TestLoadIsLossless(t *testing.T) {
	tb := startBroker(t, Config{Logger: discardLogger()})
	for _, acks := range []int16{1, -1} {
		cfg := load.Config{
			Addr: tb.addr, Topic: fmt.Sprintf("load-acks%d", acks),
			Partitions: 10, Producers: 20, InFlight: 8, Consumers: 5, Acks: acks,
			Duration: 2 * time.Second, MinRecords: 10, MaxRecords: 50, ValueBytes: 100,
			Timeout: time.Minute,
		}
		res, err := load.Run(context.Background(), cfg)
		require.NoError(t, err, "acks=%d", acks)
		require.NoError(t, res.Err, "acks=%d", acks)
		t.Log(res.Line(-1))
		assert.Greater(t, res.Acked, 20*8*10, "acks=%d: at least one batch per slot", acks)
		assert.True(t, res.Lossless(), "acks=%d: lost %d, dup %d, reordered %d", acks, res.Lost, res.Dup, res.Reorder)
	}
}
