package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkagen/kafkagen/records"
)

// segmentFile is a segment found in a partition's folder.
type segmentFile struct {
	base int64
	path string
}

// listSegments returns a partition folder's segments in offset order.
func listSegments(dir string) ([]segmentFile, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var segs []segmentFile
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".log")
		if !ok || e.IsDir() {
			continue
		}
		base, err := strconv.ParseInt(name, 10, 64)
		if err != nil || base < 0 {
			continue
		}
		segs = append(segs, segmentFile{base: base, path: filepath.Join(dir, e.Name())})
	}
	slices.SortFunc(segs, func(a, b segmentFile) int { return int(min(max(a.base-b.base, -1), 1)) })
	return segs, nil
}

// recoverSegmentLog reads a partition's segments in dir back into the
// empty log l and opens the last one for appending. Every batch is checked
// as it was stored: magic 2, its checksum, its base offset following the
// one before and a non-negative lastOffsetDelta. The log ends before the
// first batch that fails (the tail a crash tore, or anything after it): its
// segment is cut there and every later segment removed.
func recoverSegmentLog(dir string, maxBytes int64, l *partitionLog, logf func(string, ...any)) (*segmentLog, error) {
	segs, err := listSegments(dir)
	if err != nil {
		return nil, fmt.Errorf("reading the partition folder: %w", err)
	}
	s := &segmentLog{dir: dir, maxBytes: maxBytes}
	if len(segs) == 0 {
		return s, s.openSegment(0)
	}
	var restorer batchRestorer
	kept := 0
	for i, seg := range segs {
		if i == 0 {
			l.start, l.next = seg.base, seg.base
		} else if seg.base != l.next {
			logf("%s starts at offset %d, the log before it ends at %d: removing it and the segments after it", seg.path, seg.base, l.next)
			break
		}
		data, err := os.ReadFile(seg.path)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", seg.path, err)
		}
		valid, problem := restorer.restore(l, data)
		kept = i + 1
		if valid < len(data) {
			logf("%s: %s at byte %d: cutting the %d bytes from there and removing the segments after it", seg.path, problem, valid, len(data)-valid)
			if err := truncateFile(seg.path, int64(valid)); err != nil {
				return nil, err
			}
			break
		}
	}
	for _, seg := range segs[kept:] {
		if err := os.Remove(seg.path); err != nil {
			return nil, fmt.Errorf("removing %s: %w", seg.path, err)
		}
	}
	if err := syncDir(dir); err != nil {
		return nil, err
	}
	last := segs[kept-1]
	f, err := os.OpenFile(last.path, os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", last.path, err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("opening %s: %w", last.path, err)
	}
	s.active, s.activeSize = f, info.Size()
	return s, nil
}

// truncateFile cuts path to size bytes, durably.
func truncateFile(path string, size int64) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("cutting %s: %w", path, err)
	}
	err = errors.Join(f.Truncate(size), f.Sync(), f.Close())
	if err != nil {
		return fmt.Errorf("cutting %s: %w", path, err)
	}
	return nil
}

// batchRestorer reads a segment's batches back into a log.
type batchRestorer struct {
	reader records.Reader
	rr     records.RecordReader
	rec    records.Record
	dec    records.Decompressor
}

// restore adds the valid batches at the start of data to l and returns the
// bytes they cover, and when that is not all of data, what is wrong after
// them. The log keeps views of data.
func (r *batchRestorer) restore(l *partitionLog, data []byte) (int, string) {
	r.reader.Reset(data)
	valid := 0
	for r.reader.Next() {
		rb := r.reader.Batch()
		switch {
		case rb.Magic != records.MagicV2:
			return valid, fmt.Sprintf("a batch of magic %d", rb.Magic)
		case rb.BaseOffset != l.next:
			return valid, fmt.Sprintf("a batch at offset %d where the log ends at %d", rb.BaseOffset, l.next)
		case rb.LastOffsetDelta < 0:
			return valid, fmt.Sprintf("a batch with lastOffsetDelta %d", rb.LastOffsetDelta)
		}
		meta := metaOf(rb)
		l.store(meta, rb.Raw)
		if meta.Control {
			if commit, ok := r.markerCommits(rb); ok {
				l.endTxn(meta.ProducerID, meta.BaseOffset, commit)
			}
		} else {
			l.recordSequence(meta, meta.BaseOffset)
		}
		valid += len(rb.Raw)
	}
	if err := r.reader.Err(); err != nil {
		return valid, err.Error()
	}
	if tail := r.reader.Tail(); tail != nil {
		return valid, "a batch cut short"
	}
	return valid, ""
}

// markerCommits reads a control batch's transaction marker: whether it
// commits, and whether it is a marker at all.
func (r *batchRestorer) markerCommits(rb *records.Batch) (commit, ok bool) {
	if r.rr.Reset(rb, &r.dec) != nil || !r.rr.Next(&r.rec) {
		return false, false
	}
	switch t, err := r.rec.ControlType(); {
	case err != nil:
		return false, false
	case t == records.ControlCommit:
		return true, true
	case t == records.ControlAbort:
		return false, true
	}
	return false, false
}
