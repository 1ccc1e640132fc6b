package gomodel

import (
	"strings"
	"unicode"
)

// initialisms are words Go spells in one case (Effective Go, "MixedCaps").
var initialisms = map[string]string{
	"id": "ID", "ids": "IDs", "uuid": "UUID", "uuids": "UUIDs", "api": "API", "apis": "APIs",
	"acl": "ACL", "acls": "ACLs", "url": "URL", "json": "JSON", "ip": "IP", "tcp": "TCP",
	"udp": "UDP", "http": "HTTP", "tls": "TLS", "ttl": "TTL", "rpc": "RPC", "cpu": "CPU",
	"sql": "SQL", "uri": "URI",
}

// GoName turns a spec name (TopicId, timeoutMs) into an exported Go
// identifier with Go initialisms (TopicID, TimeoutMs).
func GoName(spec string) string {
	var b strings.Builder
	for _, w := range splitWords(spec) {
		if ini, ok := initialisms[strings.ToLower(w)]; ok {
			b.WriteString(ini)
			continue
		}
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		b.WriteString(string(r))
	}
	return b.String()
}

// splitWords splits a camel-case name into words; digits stay with the word
// before them and runs of capitals form one word (HTTPServer → HTTP, Server).
func splitWords(s string) []string {
	r := []rune(s)
	var words []string
	start := 0
	for i := 1; i < len(r); i++ {
		prev, cur := r[i-1], r[i]
		boundary := unicode.IsUpper(cur) && (unicode.IsLower(prev) || unicode.IsDigit(prev)) ||
			unicode.IsUpper(cur) && unicode.IsUpper(prev) && i+1 < len(r) && unicode.IsLower(r[i+1])
		if boundary {
			words = append(words, string(r[start:i]))
			start = i
		}
	}
	return append(words, string(r[start:]))
}

// FileName is the Go file name for a spec: FetchRequest → fetch_request.go.
func FileName(spec string) string {
	words := splitWords(spec)
	for i, w := range words {
		words[i] = strings.ToLower(w)
	}
	name := strings.Join(words, "_")
	if last := words[len(words)-1]; last == "test" || buildSuffixes[last] {
		// probe_test.go, probe_windows.go, probe_amd64.go would be left out
		// of normal builds by the go tool.
		name += "_gen"
	}
	return name + ".go"
}

// buildSuffixes are the GOOS and GOARCH values a file name may end in.
var buildSuffixes = map[string]bool{
	"aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true, "hurd": true,
	"illumos": true, "ios": true, "js": true, "linux": true, "nacl": true, "netbsd": true,
	"openbsd": true, "plan9": true, "solaris": true, "wasip1": true, "windows": true, "zos": true,
	"386": true, "amd64": true, "amd64p32": true, "arm": true, "armbe": true, "arm64": true,
	"arm64be": true, "loong64": true, "mips": true, "mipsle": true, "mips64": true, "mips64le": true,
	"mips64p32": true, "mips64p32le": true, "ppc": true, "ppc64": true, "ppc64le": true,
	"riscv": true, "riscv64": true, "s390": true, "s390x": true, "sparc": true, "sparc64": true,
	"wasm": true,
}

// reservedFieldNames are identifiers a generated struct already uses for
// methods or its own fields; a spec field with that Go name gets a trailing
// underscore, as protoc-gen-go does. Top-level messages have more methods
// than nested structs.
var reservedFieldNames = map[string]bool{"UnknownTags": true, "Reset": true, "Clone": true}

var reservedTopFieldNames = map[string]bool{
	"UnknownTags": true, "Size": true, "AppendTo": true, "Decode": true, "DecodeAliased": true,
	"Reset": true, "Clone": true, "SpecName": true, "APIKey": true, "MinVersion": true, "MaxVersion": true,
	"IsFlexible": true, "HeaderVersion": true, "IsRequest": true,
}
