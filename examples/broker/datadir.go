package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/kafkagen/kafkagen/runtime"
)

// The data folder (-data-dir): topics.json lists the topics (name, id,
// partitions), and each partition's batches are in the folder
// <topic>-<partition>, as Kafka names them. Group offsets, transactions and
// producer ids stay in memory.

const topicsFile = "topics.json"

// savedTopic is a topic as topics.json keeps it.
type savedTopic struct {
	Name       string `json:"name"`
	ID         string `json:"id"`
	Partitions int    `json:"partitions"`
}

// Folders this broker writes: a partition's, and a deleted partition's
// renamed before it is removed.
var (
	partitionDirPattern = regexp.MustCompile(`^.+-[0-9]+$`)
	deletedDirPattern   = regexp.MustCompile(`^.+-[0-9]+\..+-delete$`)
)

// partitionDir is a partition's folder in the data folder.
func (b *Broker) partitionDir(topic string, partition int) string {
	return filepath.Join(b.cfg.DataDir, fmt.Sprintf("%s-%d", topic, partition))
}

// openDataDir loads the data folder into the empty broker: the topics, and
// each partition's log recovered from its segments. The folder is created
// when missing; a folder with files but no topics.json is refused, so that
// a mistyped path is not taken over.
func (b *Broker) openDataDir() error {
	dir := b.cfg.DataDir
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("-data-dir: %w", err)
	}
	saved, err := loadTopics(dir)
	if err != nil {
		return err
	}
	live := map[string]bool{topicsFile: true}
	for _, st := range saved {
		id, err := runtime.ParseUUID(st.ID)
		if err != nil || st.Partitions < 1 || validTopicName(st.Name) != "" {
			return fmt.Errorf("%s: topic %q (id %q, %d partitions) is not valid", filepath.Join(dir, topicsFile), st.Name, st.ID, st.Partitions)
		}
		t := &topic{name: st.Name, id: id, partitions: make([]*partitionLog, st.Partitions)}
		for p := range t.partitions {
			pdir := b.partitionDir(st.Name, p)
			live[filepath.Base(pdir)] = true
			if t.partitions[p], err = b.openPartition(pdir); err != nil {
				return fmt.Errorf("%s: %w", pdir, err)
			}
		}
		b.topics[t.name], b.topicIDs[t.id] = t, t
	}
	if saved == nil { // a new data folder: topics.json marks it as one
		if err := b.saveTopics(); err != nil {
			return err
		}
	}
	if err := b.removeLeftovers(live); err != nil {
		return err
	}
	b.resumeAfterRecovery()
	return nil
}

// openPartition recovers a partition's log from its folder, or starts it
// when the folder is missing (a crash between topics.json and the folder).
func (b *Broker) openPartition(dir string) (*partitionLog, error) {
	l := newPartitionLog()
	var err error
	if _, statErr := os.Stat(dir); errors.Is(statErr, os.ErrNotExist) {
		l.file, err = createSegmentLog(dir, b.segmentBytes)
	} else {
		l.file, err = recoverSegmentLog(dir, b.segmentBytes, l, b.cfg.Logger.Printf)
	}
	return l, err
}

// loadTopics reads topics.json (an empty list when it holds none); a
// missing one is nil when the folder is empty.
func loadTopics(dir string) ([]savedTopic, error) {
	path := filepath.Join(dir, topicsFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, fmt.Errorf("-data-dir: %w", err)
		}
		if len(entries) > 0 {
			return nil, fmt.Errorf("-data-dir %s holds %d entries but no %s: not a broker's data folder", dir, len(entries), topicsFile)
		}
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	saved := []savedTopic{}
	if err := json.Unmarshal(data, &saved); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return saved, nil
}

// saveTopics writes topics.json from the broker's topics, durably: a
// temporary file synced and renamed over it, the folder synced. b.mu must
// be held.
func (b *Broker) saveTopics() error {
	saved := []savedTopic{}
	for _, name := range b.sortedTopicNames() {
		t := b.topics[name]
		saved = append(saved, savedTopic{Name: t.name, ID: t.id.String(), Partitions: len(t.partitions)})
	}
	data, err := json.MarshalIndent(saved, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(b.cfg.DataDir, topicsFile)
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	_, err = f.Write(append(data, '\n'))
	err = errors.Join(err, f.Sync(), f.Close())
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return syncDir(b.cfg.DataDir)
}

// createTopicFiles saves a new topic and creates its partitions' folders.
// b.mu must be held.
func (b *Broker) createTopicFiles(t *topic) error {
	if err := b.saveTopics(); err != nil {
		return err
	}
	for p, l := range t.partitions {
		var err error
		if l.file, err = createSegmentLog(b.partitionDir(t.name, p), b.segmentBytes); err != nil {
			return err
		}
	}
	return nil
}

// removeTopicFiles forgets a deleted topic on disk: topics.json first, then
// its folders, renamed as Kafka does before they are removed, so that a
// crash midway leaves only folders removeLeftovers recognises. b.mu must be
// held.
func (b *Broker) removeTopicFiles(t *topic) error {
	errs := []error{b.saveTopics()}
	for p, l := range t.partitions {
		if l.file == nil {
			continue
		}
		errs = append(errs, l.file.close())
		dir := b.partitionDir(t.name, p)
		gone := fmt.Sprintf("%s.%x-delete", dir, t.id[:])
		if err := os.Rename(dir, gone); err != nil {
			errs = append(errs, err)
			continue
		}
		errs = append(errs, os.RemoveAll(gone))
	}
	errs = append(errs, syncDir(b.cfg.DataDir))
	return errors.Join(errs...)
}

// removeLeftovers removes partition folders of no topic (a deletion a
// crash interrupted) and a topics.json write's temporary file.
func (b *Broker) removeLeftovers(live map[string]bool) error {
	entries, err := os.ReadDir(b.cfg.DataDir)
	if err != nil {
		return fmt.Errorf("-data-dir: %w", err)
	}
	for _, e := range entries {
		name := e.Name()
		path := filepath.Join(b.cfg.DataDir, name)
		stale := name == topicsFile+".tmp" ||
			e.IsDir() && deletedDirPattern.MatchString(name) ||
			e.IsDir() && !live[name] && partitionDirPattern.MatchString(name) && holdsOnlySegments(path)
		if !stale {
			continue
		}
		b.cfg.Logger.Printf("data folder: removing %s, which belongs to no topic", name)
		if err := os.RemoveAll(path); err != nil {
			return fmt.Errorf("-data-dir: %w", err)
		}
	}
	return nil
}

// holdsOnlySegments reports whether a folder holds nothing but segment
// files: a partition folder of this broker, not something else's.
func holdsOnlySegments(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	segs, err := listSegments(dir)
	return err == nil && len(segs) == len(entries)
}

// resumeAfterRecovery sets what the logs imply once they are read back:
// producer ids continue above every id in them, and a transaction still
// open in a partition, whose coordinator state was in memory, is aborted
// there (its marker written), as Kafka's coordinator would once it timed
// out.
func (b *Broker) resumeAfterRecovery() {
	maxID := int64(-1)
	type openTxn struct {
		tp         topicPartition
		producerID int64
		epoch      int16
	}
	var open []openTxn
	for name, t := range b.topics {
		for p, l := range t.partitions {
			for _, sb := range l.batches {
				maxID = max(maxID, sb.ProducerID)
			}
			for pid := range l.ongoing {
				epoch := int16(0)
				if s := l.sequence[pid]; s != nil {
					epoch = s.epoch
				}
				open = append(open, openTxn{topicPartition{name, int32(p)}, pid, epoch})
			}
		}
	}
	b.txns.nextProducerID = max(b.txns.nextProducerID, maxID+1)
	for _, o := range open {
		b.cfg.Logger.Printf("data folder: aborting the transaction of producer %d left open in %s[%d]", o.producerID, o.tp.topic, o.tp.partition)
		b.writeMarker(o.tp, o.producerID, o.epoch, false)
	}
}
