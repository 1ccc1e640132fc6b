// Command summary reads the logs of the conformance suite and prints its one
// summary line: pairs, messages, transcodes and kmsg pairs checked, the JSON
// vectors and round trips, the frames dump printed, the real clients' frames
// replayed, the messages rewritten through the entity and endpoint
// visitors, the messages and mutations compared between tables and printed
// methods (tables vs printed), and mismatches. With -k411 it also needs and
// prints the Kafka 4.1.1 counts: Java 4.1.1's vectors and the 4.1.1 kmsg
// differential. It exits 1 when a count it needs is missing.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
)

// field matches key=value counts such as "pairs=783".
var field = regexp.MustCompile(`([a-z-]+)=(\d+)`)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run prints the summary line of the logs named in args to stdout and
// returns the exit code: 1 when a count is missing or anything mismatched.
func run(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("summary", flag.ContinueOnError)
	flags.SetOutput(stderr)
	k411 := flags.Bool("k411", false, "the logs hold the Kafka 4.1.1 checks (java-4.1.1 and kmsg-4.1.1 lines)")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	counts := map[string]map[string]int{} // line prefix -> key -> value
	prefix := regexp.MustCompile(`^(corpus round trip|transcode|kmsg|kmsg-4\.1\.1|kmsg-4\.1\.1-records|java-4\.1\.1|errors|length bombs|json java vectors|json round trip|dynamic vs generated|dump|dump captures|captures|visitors|tables vs printed):`)
	for _, path := range flags.Args() {
		f, err := os.Open(path)
		if err != nil {
			fmt.Fprintln(stderr, "summary:", err)
			return 1
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			m := prefix.FindStringSubmatch(sc.Text())
			if m == nil {
				continue
			}
			kv := map[string]int{}
			for _, f := range field.FindAllStringSubmatch(sc.Text(), -1) {
				kv[f[1]], _ = strconv.Atoi(f[2])
			}
			counts[m[1]] = kv
		}
		f.Close()
	}
	need := []struct{ line, key string }{
		{"corpus round trip", "pairs"}, {"corpus round trip", "messages"},
		{"transcode", "checked"}, {"kmsg", "pairs"}, {"kmsg", "messages"},
		{"json java vectors", "equal"}, {"json round trip", "messages"},
		{"dump", "requests"}, {"dump", "responses"}, {"captures", "frames"},
		{"visitors", "rewritten-pairs"}, {"visitors", "messages"},
		{"tables vs printed", "messages"}, {"tables vs printed", "mutations"},
	}
	if *k411 {
		need = append(need, []struct{ line, key string }{
			{"java-4.1.1", "read"}, {"java-4.1.1", "java-read"}, {"java-4.1.1", "refused"},
			{"java-4.1.1", "java-refused"}, {"java-4.1.1", "json"}, {"kmsg-4.1.1", "pairs"},
			{"kmsg-4.1.1", "messages"}, {"kmsg-4.1.1", "excluded-pairs"}, {"kmsg-4.1.1-records", "pairs"},
		}...)
	}
	for _, n := range need {
		if _, ok := counts[n.line][n.key]; !ok {
			fmt.Fprintf(stderr, "summary: no %q count in the %q line of the logs\n", n.key, n.line)
			return 1
		}
	}
	mismatches := 0
	for _, kv := range counts {
		mismatches += kv["mismatches"]
	}
	json := counts["json java vectors"]
	if json["equal"] != json["vectors"] {
		mismatches += json["vectors"] - json["equal"]
	}
	release := " k411=skipped"
	if *k411 {
		j, k, r := counts["java-4.1.1"], counts["kmsg-4.1.1"], counts["kmsg-4.1.1-records"]
		for _, c := range [][2]int{{j["read"], j["java-read"]}, {j["refused"], j["java-refused"]}, {j["json"], j["java-read"]}} {
			mismatches += max(c[1]-c[0], 0)
		}
		release = fmt.Sprintf(" java-4.1.1=%d/%d java-4.1.1-refused=%d/%d java-4.1.1-json=%d/%d kmsg-4.1.1-pairs=%d kmsg-4.1.1-messages=%d kmsg-4.1.1-excluded-pairs=%d kmsg-4.1.1-record-pairs=%d",
			j["read"], j["java-read"], j["refused"], j["java-refused"], j["json"], j["java-read"], k["pairs"], k["messages"], k["excluded-pairs"], r["pairs"])
	}
	fmt.Fprintf(stdout, "conformance: pairs=%d messages=%d transcodes=%d kmsg-pairs=%d kmsg-messages=%d kmsg-excluded-pairs=%d "+
		"json-vectors=%d/%d json-roundtrips=%d dump-frames=%d captured-frames=%d visitor-pairs=%d visitor-messages=%d tables-vs-printed=%d/%d%s mismatches=%d\n",
		counts["corpus round trip"]["pairs"], counts["corpus round trip"]["messages"],
		counts["transcode"]["checked"], counts["kmsg"]["pairs"], counts["kmsg"]["messages"],
		counts["kmsg"]["excluded-pairs"], json["equal"], json["vectors"], counts["json round trip"]["messages"],
		counts["dump"]["requests"]+counts["dump"]["responses"], counts["captures"]["frames"],
		counts["visitors"]["rewritten-pairs"], counts["visitors"]["messages"],
		counts["tables vs printed"]["messages"], counts["tables vs printed"]["mutations"], release, mismatches)
	if mismatches > 0 {
		return 1
	}
	return 0
}
