package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
)

// defaultSegmentBytes is where a partition's log rolls to a new segment
// file: Kafka's segment.bytes default, 1 GiB.
const defaultSegmentBytes = 1 << 30

// segmentLog is a partition's log on disk (-data-dir): append-only segment
// files holding the stored v2 batches one after the other, exactly as
// Fetch returns them, each file named by the offset of its first batch.
// Appends happen under the broker's lock; syncTo, which makes them durable,
// runs outside it and lets concurrent callers share one fsync.
type segmentLog struct {
	dir      string
	maxBytes int64 // roll to a new segment when an append would pass this

	// active and activeSize change under the broker's lock; active is
	// swapped (roll, close) also holding syncMu, under which syncTo uses it.
	active     *os.File
	activeSize int64
	written    atomic.Int64 // bytes appended in all: the position syncTo waits for

	syncMu sync.Mutex
	synced int64 // every byte up to this position is durable
	closed bool
}

// segmentName is the file name of the segment whose first batch is at
// offset base, as Kafka names them.
func segmentName(base int64) string { return fmt.Sprintf("%020d.log", base) }

// createSegmentLog starts an empty partition log in dir, which must not
// exist yet: its first segment begins at offset 0.
func createSegmentLog(dir string, maxBytes int64) (*segmentLog, error) {
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating the partition folder: %w", err)
	}
	if err := syncDir(filepath.Dir(dir)); err != nil {
		return nil, err
	}
	s := &segmentLog{dir: dir, maxBytes: maxBytes}
	if err := s.openSegment(0); err != nil {
		return nil, err
	}
	return s, nil
}

// openSegment makes a new segment file starting at base the active one.
// The caller holds syncMu when another segment is active.
func (s *segmentLog) openSegment(base int64) error {
	f, err := os.OpenFile(filepath.Join(s.dir, segmentName(base)), os.O_CREATE|os.O_EXCL|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("creating a segment: %w", err)
	}
	if err := syncDir(s.dir); err != nil {
		f.Close()
		return err
	}
	if s.active != nil {
		s.active.Close()
	}
	s.active, s.activeSize = f, 0
	return nil
}

// append writes one stored batch whose first offset is base and returns
// the position syncTo must reach for it to be durable. On an error nothing
// of the batch stays in the file (a partial write is cut off). The
// broker's lock must be held.
func (s *segmentLog) append(base int64, data []byte) (int64, error) {
	if s.activeSize > 0 && s.activeSize+int64(len(data)) > s.maxBytes {
		if err := s.roll(base); err != nil {
			return 0, err
		}
	}
	n, err := s.active.Write(data)
	if err != nil {
		if n > 0 {
			err = errors.Join(err, s.active.Truncate(s.activeSize))
		}
		return 0, fmt.Errorf("writing to %s: %w", s.active.Name(), err)
	}
	s.activeSize += int64(n)
	return s.written.Add(int64(n)), nil
}

// roll makes the active segment durable and starts the next one at base.
func (s *segmentLog) roll(base int64) error {
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	if err := s.active.Sync(); err != nil {
		return fmt.Errorf("syncing %s: %w", s.active.Name(), err)
	}
	s.synced = s.written.Load()
	return s.openSegment(base)
}

// syncTo returns once every byte appended up to position pos is on disk
// (fsync). Callers arriving during an fsync wait for it and usually find
// their bytes covered by it, so concurrent acks=-1 Produces share fsyncs.
func (s *segmentLog) syncTo(pos int64) error {
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	if s.synced >= pos || s.closed { // closed: the topic was deleted meanwhile
		return nil
	}
	target := s.written.Load()
	if err := s.active.Sync(); err != nil {
		return fmt.Errorf("syncing %s: %w", s.active.Name(), err)
	}
	s.synced = target
	return nil
}

// close makes the log durable and closes its file.
func (s *segmentLog) close() error {
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	return errors.Join(s.active.Sync(), s.active.Close())
}

// syncDir makes a folder's entries (files created, renamed, removed)
// durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("syncing folder %s: %w", dir, err)
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("syncing folder %s: %w", dir, err)
	}
	return nil
}
