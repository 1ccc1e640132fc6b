package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Client ids are chosen by clients, so what is kept per client id is
// bounded: at most maxTrackedClients of them are told apart, the rest share
// otherClients, and each is cut to maxClientIDKeyLen bytes.
const (
	maxTrackedClients = 1000
	maxClientIDKeyLen = 128
	otherClients      = "(other clients)"
)

// clientKey is the key of a client id in stats and capture: its first
// maxClientIDKeyLen bytes. The result may share the request's memory: clone
// it to keep it.
func clientKey(id string) string {
	if len(id) > maxClientIDKeyLen {
		return id[:maxClientIDKeyLen]
	}
	return id
}

// Stats counts the requests the broker received, per client id and
// "<ApiName> v<version>", and the requests whose re-encoding differed from
// the bytes that arrived. It is written as JSON for the interop suite:
//
//	{"requests": N, "reencode_diffs": N, "clients": {"<client id>": {"Produce v9": N, ...}}}
//
// Client ids past the first maxTrackedClients are counted under
// otherClients, and long ones by their first maxClientIDKeyLen bytes.
type Stats struct {
	mu            sync.Mutex
	Requests      int64                       `json:"requests"`
	ReencodeDiffs int64                       `json:"reencode_diffs"`
	Clients       map[string]map[string]int64 `json:"clients"`
}

// NewStats returns empty counts.
func NewStats() *Stats { return &Stats{Clients: map[string]map[string]int64{}} }

// Count adds one request of a client at an api key and version.
func (s *Stats) Count(clientID string, apiKey, version int16) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Requests++
	key := clientKey(clientID)
	apis := s.Clients[key]
	if apis == nil && len(s.Clients) >= maxTrackedClients {
		key = otherClients
		apis = s.Clients[key]
	}
	if apis == nil {
		apis = map[string]int64{}
		s.Clients[strings.Clone(key)] = apis
	}
	apis[fmt.Sprintf("%s v%d", apiName(apiKey), version)]++
}

// CountDiff adds one request whose re-encoding differed.
func (s *Stats) CountDiff() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ReencodeDiffs++
}

// Snapshot returns the request and difference counts.
func (s *Stats) Snapshot() (requests, diffs int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.Requests, s.ReencodeDiffs
}

// WriteFile writes the counts as JSON to path, atomically (a temporary file
// renamed over it), so a reader never sees half a file.
func (s *Stats) WriteFile(path string) error {
	s.mu.Lock()
	data, err := json.MarshalIndent(s, "", "  ")
	s.mu.Unlock()
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(append(data, '\n'))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing stats %s: %w", path, err)
	}
	return nil
}
