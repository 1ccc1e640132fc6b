package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Capture writes the first request frame (header and body, without the
// size prefix) of every distinct (client id, api key, version) to
// DIR/<sanitized client id>/<ApiName>-v<version>.bin: golden files of real
// clients' traffic. Like Stats it keeps at most maxTrackedClients client
// ids apart, each cut to maxClientIDKeyLen bytes; later ones are not
// captured.
type Capture struct {
	dir     string
	mu      sync.Mutex
	seen    map[captureKey]bool
	clients map[string]string // each kept client id, as its own copy
}

type captureKey struct {
	clientID string
	apiKey   int16
	version  int16
}

// NewCapture captures into dir, creating it when missing.
func NewCapture(dir string) (*Capture, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("capture folder: %w", err)
	}
	return &Capture{dir: dir, seen: map[captureKey]bool{}, clients: map[string]string{}}, nil
}

// Frame writes frame unless a frame of the same client, key and version
// was written before.
func (c *Capture) Frame(clientID string, apiKey, version int16, frame []byte) error {
	id := clientKey(clientID)
	key := captureKey{id, apiKey, version}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen[key] {
		return nil
	}
	kept, ok := c.clients[id]
	if !ok {
		if len(c.clients) >= maxTrackedClients {
			return nil
		}
		kept = strings.Clone(id)
		c.clients[kept] = kept
	}
	key.clientID = kept
	c.seen[key] = true
	dir := filepath.Join(c.dir, sanitizeClientID(kept))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("capture: %w", err)
	}
	path := filepath.Join(dir, fmt.Sprintf("%s-v%d.bin", apiName(apiKey), version))
	if err := os.WriteFile(path, frame, 0o644); err != nil {
		return fmt.Errorf("capture: %w", err)
	}
	return nil
}

// sanitizeClientID makes a client id a folder name: every byte outside
// [A-Za-z0-9._-] becomes '_'; an empty id (or one of dots only) becomes
// "unknown".
func sanitizeClientID(id string) string {
	b := []byte(id)
	dots := true
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			b[i] = '_'
		}
		dots = dots && b[i] == '.'
	}
	if dots {
		return "unknown"
	}
	return string(b)
}
