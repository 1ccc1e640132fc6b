package load

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// The read-back check counts what it must: each row reads records of one
// stream whose acknowledged batches are [0,3) at offset 10 and [3,5) at 20.
func TestStreamTally(t *testing.T) {
	type read struct {
		seq    int32
		offset int64
	}
	inOrder := []read{{0, 10}, {1, 11}, {2, 12}, {3, 20}, {4, 21}}
	tests := []struct {
		name      string
		reads     []read
		uncertain int
		want      [4]int // acked, lost, dup, reordered
	}{
		{name: "everything once, in order", reads: inOrder, want: [4]int{5, 0, 0, 0}},
		{name: "the last batch missing", reads: inOrder[:3], want: [4]int{5, 2, 0, 0}},
		{name: "a record twice", reads: append(append([]read{}, inOrder[:2]...), append([]read{{1, 12}}, inOrder[2:]...)...), want: [4]int{5, 0, 1, 0}},
		{name: "two records swapped", reads: []read{{0, 10}, {2, 11}, {1, 12}, {3, 20}, {4, 21}}, want: [4]int{5, 0, 0, 3}},
		{name: "a batch before the previous one", reads: []read{{3, 20}, {4, 21}, {0, 22}, {1, 23}, {2, 24}}, want: [4]int{5, 0, 0, 4}},
		{name: "a batch at another offset", reads: []read{{0, 10}, {1, 11}, {2, 12}, {3, 30}, {4, 31}}, want: [4]int{5, 0, 0, 2}},
		{name: "a record never acknowledged", reads: append(append([]read{}, inOrder...), read{5, 22}), want: [4]int{5, 0, 1, 0}},
		{name: "the failed request's records", reads: append(append([]read{}, inOrder...), read{5, 22}), uncertain: 2, want: [4]int{5, 0, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &stream{acked: []ackedBatch{{firstSeq: 0, baseOffset: 10, count: 3}, {firstSeq: 3, baseOffset: 20, count: 2}}, uncertain: tt.uncertain}
			for _, r := range tt.reads {
				s.readBack(r.seq, r.offset)
			}
			acked, lost, dup, reordered := s.tally()
			assert.Equal(t, tt.want, [4]int{acked, lost, dup, reordered})
		})
	}
}

func TestPercentile(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	var hundred []time.Duration
	for i := 1; i <= 100; i++ {
		hundred = append(hundred, ms(i))
	}
	tests := []struct {
		sorted []time.Duration
		p      int
		want   time.Duration
	}{
		{nil, 50, 0},
		{[]time.Duration{ms(7)}, 99, ms(7)},
		{hundred, 50, ms(50)},
		{hundred, 90, ms(90)},
		{hundred, 99, ms(99)},
		{hundred[:10], 99, ms(10)},
		{hundred[:10], 50, ms(5)},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, percentile(tt.sorted, tt.p), "p%d of %d", tt.p, len(tt.sorted))
	}
}
