package compat

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// previewMarker is how Kafka's spec files say in a comment that their
// messages are early access ("KIP-932 is in development. This schema is
// subject to non-backwards-compatible changes."): the share and streams
// group records of 3.9 to 4.2 (docs/protocol.md, "What Kafka 4.0, 4.1 and
// 4.2 added").
const previewMarker = "subject to non-backwards-compatible changes"

// unstableLatest is the spec's latest version when it is marked
// latestVersionUnstable, else no version.
func unstableLatest(s *schema.Spec) schema.Versions {
	if !s.LatestVersionUnstable || s.ValidVersions.Empty() {
		return schema.None
	}
	return schema.Versions{Lo: s.ValidVersions.Hi, Hi: s.ValidVersions.Hi}
}

// earlyAccess returns the versions of the old spec that Kafka declared
// early access, which promise nothing: its latest version when marked
// latestVersionUnstable, or when it is the response of a request so marked
// (responses carry no flag of their own; the request beside it in the same
// folder is loaded with rules); every version when a comment of the file
// carries previewMarker.
func earlyAccess(s *schema.Spec, rules schema.Rules) (schema.Versions, error) {
	if v := unstableLatest(s); !v.Empty() {
		return v, nil
	}
	src, err := os.ReadFile(s.File)
	if err != nil {
		return schema.None, err
	}
	if commentSays(src, previewMarker) {
		return s.ValidVersions, nil
	}
	if s.Type != schema.TypeResponse || !strings.HasSuffix(s.Name, "Response") {
		return schema.None, nil
	}
	request := filepath.Join(filepath.Dir(s.File), strings.TrimSuffix(s.Name, "Response")+"Request.json")
	if _, err := os.Stat(request); err != nil {
		return schema.None, nil // a response without its request: nothing says it is early access
	}
	req, err := rules.LoadFile(request)
	if err != nil || req.ValidVersions.Hi != s.ValidVersions.Hi {
		// A request that does not load is reported when it is compared
		// itself; one with another maximum says nothing of this response.
		return schema.None, nil
	}
	return unstableLatest(req), nil
}

// commentSays reports whether a // comment line of src contains text.
func commentSays(src []byte, text string) bool {
	lines := bufio.NewScanner(bytes.NewReader(src))
	lines.Buffer(make([]byte, 0, 4096), len(src)+1)
	for lines.Scan() {
		line := bytes.TrimSpace(lines.Bytes())
		if bytes.HasPrefix(line, []byte("//")) && bytes.Contains(line, []byte(text)) {
			return true
		}
	}
	return false
}
