package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// updateCaptures replaces the folders of the clients in specs under dest
// (testdata/captures) with the frames the broker captured into src:
// src/<client id>/<Api>-v<ver>.bin becomes dest/<client>/<step>/<Api>-v<ver>.bin,
// where the client id is "<client>-<step>". The folders of clients that did
// not run (-clients) are kept. Client ids of no client in specs are left
// out (and named in the returned note). It returns the number of frames
// written.
func updateCaptures(src, dest string, specs []clientSpec) (int, string, error) {
	ids, err := os.ReadDir(src)
	if err != nil {
		return 0, "", fmt.Errorf("captures: %w", err)
	}
	for _, s := range specs {
		if err := os.RemoveAll(filepath.Join(dest, s.Name)); err != nil {
			return 0, "", fmt.Errorf("captures: %w", err)
		}
	}
	frames := 0
	var skipped []string
	for _, id := range ids {
		if !id.IsDir() {
			continue
		}
		client := clientOf(id.Name(), specs)
		if client == "" {
			skipped = append(skipped, id.Name())
			continue
		}
		step := strings.TrimPrefix(id.Name(), client+"-")
		files, err := os.ReadDir(filepath.Join(src, id.Name()))
		if err != nil {
			return frames, "", fmt.Errorf("captures: %w", err)
		}
		dir := filepath.Join(dest, client, step)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return frames, "", fmt.Errorf("captures: %w", err)
		}
		for _, f := range files {
			data, err := os.ReadFile(filepath.Join(src, id.Name(), f.Name()))
			if err != nil {
				return frames, "", fmt.Errorf("captures: %w", err)
			}
			if err := os.WriteFile(filepath.Join(dir, f.Name()), data, 0o644); err != nil {
				return frames, "", fmt.Errorf("captures: %w", err)
			}
			frames++
		}
	}
	note := ""
	if len(skipped) > 0 {
		note = fmt.Sprintf("left out the frames of %d client ids of no known client: %s", len(skipped), strings.Join(skipped, ", "))
	}
	return frames, note, nil
}
