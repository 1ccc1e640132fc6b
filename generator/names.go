package generator

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

// goName turns a spec name (TopicId, timeoutMs) into an exported Go
// identifier with Go initialisms (TopicID, TimeoutMs).
func goName(spec string) string {
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

// fileName is the Go file name for a spec: FetchRequest → fetch_request.go.
func fileName(spec string) string {
	words := splitWords(spec)
	for i, w := range words {
		words[i] = strings.ToLower(w)
	}
	return strings.Join(words, "_") + ".go"
}

// reservedFieldNames are identifiers a generated struct already uses for
// methods or its own fields; a spec field with that Go name gets a trailing
// underscore, as protoc-gen-go does.
var reservedFieldNames = map[string]bool{
	"UnknownTags": true, "Size": true, "AppendTo": true, "Decode": true, "DecodeAliased": true,
	"Reset": true, "SpecName": true, "APIKey": true, "MinVersion": true, "MaxVersion": true,
	"IsFlexible": true, "HeaderVersion": true, "IsRequest": true, "IsDefault": true,
}
