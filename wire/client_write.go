package wire

import (
	"encoding/binary"
	"fmt"
	"net"
	"sync"
	"time"
)

// maxBatch is the most requests written with one system call: callers
// queued while the previous write ran go out together.
const maxBatch = 64

// maxPooledFrame is the largest request buffer kept for reuse; a larger
// one (a big Produce) is left to the garbage collector.
const maxPooledFrame = 64 << 10

var framePool = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

func getFrame() *[]byte { return framePool.Get().(*[]byte) }

func putFrame(b *[]byte) {
	if cap(*b) <= maxPooledFrame {
		*b = (*b)[:0]
		framePool.Put(b)
	}
}

// writeLoop writes the requests handed to it until the client fails: one
// at a time, or every one queued meanwhile in one write.
func (c *Client) writeLoop() {
	defer close(c.writerDone)
	var (
		batch []*call
		vec   [][]byte
	)
	for {
		batch = batch[:0]
		select {
		case cl := <-c.queue:
			batch = append(batch, cl)
		case <-c.dead:
			return
		}
	more:
		for len(batch) < maxBatch {
			select {
			case cl := <-c.queue:
				batch = append(batch, cl)
			default:
				break more
			}
		}
		var err error
		vec, err = c.writeBatch(batch, vec)
		if err != nil {
			c.fail(err)
			return
		}
	}
}

// writeBatch numbers the calls of batch whose callers still wait, queues
// those expecting a response, and writes them. A failed write fails the
// client: part of a frame may be on the wire.
func (c *Client) writeBatch(batch []*call, vec [][]byte) ([][]byte, error) {
	vec = vec[:0]
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		for _, cl := range batch {
			putFrame(cl.frame)
			cl.finish(c.err)
		}
		return vec, nil
	}
	first := c.nextID
	live := batch[:0]
	for _, cl := range batch {
		if !c.take(cl) {
			putFrame(cl.frame) // the caller gave up before a byte was written
			continue
		}
		if cl.resp != nil {
			c.pending = append(c.pending, cl)
		}
		live = append(live, cl)
		vec = append(vec, *cl.frame)
	}
	c.mu.Unlock()
	if len(live) == 0 {
		return vec, nil
	}
	err := c.write(vec)
	for i, cl := range live {
		putFrame(cl.frame)
		vec[i] = nil
		if cl.resp == nil {
			cl.finish(err)
		}
	}
	if err == nil {
		return vec, nil
	}
	if len(live) == 1 {
		return vec, fmt.Errorf("kafka client: writing %s v%d (correlation id %d): %w", live[0].name, live[0].version, first, err)
	}
	return vec, fmt.Errorf("kafka client: writing %d requests (correlation ids %d to %d): %w", len(live), first, c.nextID-1, err)
}

// take numbers cl and marks it sent, unless its caller gave up. c.mu is
// held.
func (c *Client) take(cl *call) bool {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if cl.abandoned {
		return false
	}
	cl.id, cl.sent = c.nextID, true
	c.nextID++
	// The correlation id follows the api key and version (every header
	// version), after the 4-byte size.
	binary.BigEndian.PutUint32((*cl.frame)[8:], uint32(cl.id))
	return true
}

// write writes the frames of vec within the request timeout.
func (c *Client) write(vec [][]byte) error {
	var deadline time.Time
	if c.timeout > 0 {
		deadline = time.Now().Add(c.timeout)
	}
	if err := c.conn.SetWriteDeadline(deadline); err != nil {
		return err
	}
	if len(vec) == 1 {
		_, err := c.conn.Write(vec[0])
		return err
	}
	bufs := net.Buffers(vec)
	_, err := bufs.WriteTo(c.conn)
	return err
}
