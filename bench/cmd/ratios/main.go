// Command ratios reads `go test -bench` output of the bench module and prints
// each performance target of the benchmark issue with the measured ratio
// (medians, as benchstat uses) and PASS or MISS.
//
//	go run ./cmd/ratios [-md] bench.txt
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"
)

type key struct{ msg, op, impl string }

var (
	fieldHeavy = []string{"MetadataResponse", "ApiVersionsResponse", "OffsetCommitRequest"}
	bytesHeavy = []string{"FetchResponse", "ProduceRequest"}
	allMsgs    = []string{"MetadataResponse", "FetchResponse", "ProduceRequest", "ApiVersionsResponse", "OffsetCommitRequest"}
)

var procs = regexp.MustCompile(`-\d+$`)

func main() {
	md := flag.Bool("md", false, "print a Markdown table")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: ratios [-md] bench.txt")
		os.Exit(2)
	}
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer f.Close()
	secs, allocs, err := read(f, flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}

	type row struct {
		target, measured, status string
	}
	var rows []row
	add := func(target string, got float64, ok bool, format string) {
		status := "PASS"
		if !ok {
			status = "MISS"
		}
		rows = append(rows, row{target, fmt.Sprintf(format, got), status})
	}
	missing := func(target string) { rows = append(rows, row{target, "n/a", "NO DATA"}) }
	ratio := func(num, den key) (float64, bool) {
		n, ok1 := secs[num]
		d, ok2 := secs[den]
		if !ok1 || !ok2 || d == 0 {
			return 0, false
		}
		return n / d, true
	}

	for _, m := range fieldHeavy {
		t := m + ": encode-reused, kmsg AppendTo / ours ≥ 1.5×"
		if r, ok := ratio(key{m, "encode-reused", "kmsg"}, key{m, "encode-reused", "kafkagen"}); ok {
			add(t, r, r >= 1.5, "%.2f×")
		} else {
			missing(t)
		}
	}
	for _, m := range fieldHeavy {
		t := m + ": decode-reused, kmsg ReadFrom / ours Decode ≥ 3×"
		if r, ok := ratio(key{m, "decode-reused", "kmsg"}, key{m, "decode-reused", "kafkagen"}); ok {
			add(t, r, r >= 3, "%.2f×")
		} else {
			missing(t)
		}
	}
	for _, m := range allMsgs {
		t := m + ": decode-aliased, kmsg UnsafeReadFrom / ours DecodeAliased ≥ 3×"
		if r, ok := ratio(key{m, "decode-aliased", "kmsg"}, key{m, "decode-aliased", "kafkagen"}); ok {
			add(t, r, r >= 3, "%.2f×")
		} else {
			missing(t)
		}
	}
	// Issue 11 asks for margin over the decode-aliased targets, so that the
	// noise of a shared machine never crosses them: at least 3.5× kmsg on
	// every message, and ProduceRequest within 1.25× of its walk floor.
	for _, m := range allMsgs {
		t := m + ": decode-aliased, kmsg UnsafeReadFrom / ours DecodeAliased ≥ 3.5× (margin)"
		if r, ok := ratio(key{m, "decode-aliased", "kmsg"}, key{m, "decode-aliased", "kafkagen"}); ok {
			add(t, r, r >= 3.5, "%.2f×")
		} else {
			missing(t)
		}
	}
	if r, ok := ratio(key{"ProduceRequest", "decode-aliased", "kafkagen"}, key{"ProduceRequest", "walk", "copy"}); ok {
		add("ProduceRequest: decode-aliased / walk ≤ 1.25× (margin)", r, r <= 1.25, "%.2f×")
	} else {
		missing("ProduceRequest: decode-aliased / walk ≤ 1.25× (margin)")
	}
	for _, m := range bytesHeavy {
		// Encode is measured with the records in two places (see
		// bench_test.go): in buffers of their own, and in the wire they
		// arrived in; the target applies to both.
		for _, op := range []string{"encode-reused", "encode-relayed"} {
			t := m + ": " + op + " / copy ≤ 1.1×"
			if r, ok := ratio(key{m, op, "kafkagen"}, key{m, "copy", "copy"}); ok {
				add(t, r, r <= 1.1, "%.2f×")
			} else {
				missing(t)
			}
		}
		t := m + ": decode-reused / copy ≤ 1.3×"
		if r, ok := ratio(key{m, "decode-reused", "kafkagen"}, key{m, "copy", "copy"}); ok {
			add(t, r, r <= 1.3, "%.2f×")
		} else {
			missing(t)
		}
	}
	// Context, not targets: the floor of encode-reused (copying each record
	// slice to its offset, nothing else), the floor of decode-reused
	// (copying each record slice into a buffer of its own), the floor of
	// decode-aliased (store: a minimal decoder into plain structs, over the
	// walk that only follows lengths), and kmsg on the same messages.
	var context []string
	for _, m := range bytesHeavy {
		for _, c := range []struct {
			num, den key
			what     string
		}{
			{key{m, "copy-records", "copy"}, key{m, "copy", "copy"}, "copy-records / copy"},
			{key{m, "encode-reused", "kafkagen"}, key{m, "copy-records", "copy"}, "encode-reused / copy-records"},
			{key{m, "encode-reused", "kmsg"}, key{m, "copy", "copy"}, "kmsg encode-reused / copy"},
			{key{m, "encode-relayed", "kmsg"}, key{m, "copy", "copy"}, "kmsg encode-relayed / copy"},
			{key{m, "copy-scatter", "copy"}, key{m, "copy", "copy"}, "copy-scatter / copy"},
			{key{m, "decode-reused", "kafkagen"}, key{m, "copy-scatter", "copy"}, "decode-reused / copy-scatter"},
			{key{m, "decode-aliased", "kafkagen"}, key{m, "walk", "copy"}, "decode-aliased / walk"},
			{key{m, "store", "copy"}, key{m, "walk", "copy"}, "store / walk"},
			{key{m, "decode-aliased", "kafkagen"}, key{m, "store", "copy"}, "decode-aliased / store"},
			{key{m, "decode-aliased", "kmsg"}, key{m, "walk", "copy"}, "kmsg decode-aliased / walk"},
		} {
			if r, ok := ratio(c.num, c.den); ok {
				context = append(context, fmt.Sprintf("%s: %s = %.2f×", m, c.what, r))
			}
		}
	}
	defer func() {
		for _, c := range context {
			fmt.Println(c)
		}
	}()
	for _, m := range allMsgs {
		for _, a := range []struct {
			op   string
			want float64
		}{{"encode-reused", 0}, {"encode-nil", 1}, {"decode-reused", 0}, {"decode-aliased", 0}} {
			t := fmt.Sprintf("%s: %s allocs/op = %g", m, a.op, a.want)
			if got, ok := allocs[key{m, a.op, "kafkagen"}]; ok {
				add(t, got, got == a.want, "%g")
			} else {
				missing(t)
			}
		}
	}

	// Record sets (issue 9): the records of a ~1 MiB Fetch response read
	// and built (bench/recordset_test.go), each codec against its library,
	// and the CRC against hash/crc32.
	for _, t := range []struct {
		target   string
		num, den key
		atLeast  bool
		bound    float64
	}{
		{"Recordset read: kmsg ReadFrom / ours ≥ 3×", key{"RecordsetRead", "read", "kmsg"}, key{"RecordsetRead", "read", "kafkagen"}, true, 3},
		// ReadFrom copies each header key into a string; UnsafeReadFrom
		// aliases it, as ours does: the same target, like for like.
		{"Recordset read: kmsg UnsafeReadFrom / ours ≥ 3×", key{"RecordsetRead", "read", "kmsg-unsafe"}, key{"RecordsetRead", "read", "kafkagen"}, true, 3},
		{"Recordset read: sarama / ours ≥ 5×", key{"RecordsetRead", "read", "sarama"}, key{"RecordsetRead", "read", "kafkagen"}, true, 5},
		{"Recordset read: ours / walk floor ≤ 1.5×", key{"RecordsetRead", "read", "kafkagen"}, key{"RecordsetRead", "walk", "floor"}, false, 1.5},
		{"Recordset build: kmsg / ours ≥ 2×", key{"RecordsetBuild", "build", "kmsg"}, key{"RecordsetBuild", "build", "kafkagen"}, true, 2},
		{"Recordset CRC32C: ours / hash/crc32 ≤ 1.05×", key{"RecordsetCRC", "crc32c", "kafkagen"}, key{"RecordsetCRC", "crc32c", "stdlib"}, false, 1.05},
	} {
		if r, ok := ratio(t.num, t.den); ok {
			add(t.target, r, (t.atLeast && r >= t.bound) || (!t.atLeast && r <= t.bound), "%.2f×")
		} else {
			missing(t.target)
		}
	}
	for _, codec := range []string{"gzip", "snappy", "lz4", "zstd"} {
		for _, op := range []string{"compress", "decompress"} {
			t := "Recordset " + codec + " " + op + ": ours / library ≤ 1.1×"
			if r, ok := ratio(key{"RecordsetCodec", codec + "-" + op, "kafkagen"}, key{"RecordsetCodec", codec + "-" + op, "lib"}); ok {
				add(t, r, r <= 1.1, "%.2f×")
			} else {
				missing(t)
			}
		}
	}
	// Context for the record-set targets: the floor of finding every
	// field, the floor under building, and AppendTo (the builder's buffer
	// copied) beside Start/Finish.
	for _, c := range []struct {
		num, den key
		what     string
	}{
		{key{"RecordsetRead", "read", "kafkagen"}, key{"RecordsetRead", "walk-fields", "floor"}, "Recordset read: ours / every-field walk floor"},
		{key{"RecordsetRead", "walk-fields", "floor"}, key{"RecordsetRead", "walk", "floor"}, "Recordset read: every-field walk / walk floor"},
		// The floor under any reader that fills the caller's Record a call
		// at a time, as RecordReader.Next does, checking nothing.
		{key{"RecordsetRead", "read", "kafkagen"}, key{"RecordsetRead", "walk-record", "floor"}, "Recordset read: ours / record-filling floor"},
		{key{"RecordsetRead", "walk-record", "floor"}, key{"RecordsetRead", "walk", "floor"}, "Recordset read: record-filling floor / walk floor"},
		{key{"RecordsetRead", "walk-record-inline", "floor"}, key{"RecordsetRead", "walk", "floor"}, "Recordset read: record-filling floor without a call / walk floor"},
		{key{"RecordsetBuild", "build", "kafkagen"}, key{"RecordsetBuild", "copy", "floor"}, "Recordset build: ours / copy floor"},
		{key{"RecordsetBuild", "build", "kmsg"}, key{"RecordsetBuild", "copy", "floor"}, "Recordset build: kmsg / copy floor"},
		{key{"RecordsetBuild", "build", "kmsg"}, key{"RecordsetBuild", "build", "kafkagen-buffered"}, "Recordset build: kmsg / ours AppendTo"},
	} {
		if r, ok := ratio(c.num, c.den); ok {
			context = append(context, fmt.Sprintf("%s = %.2f×", c.what, r))
		}
	}
	for _, k := range []key{{"RecordsetRead", "read", "kafkagen"}, {"RecordsetBuild", "build", "kafkagen"}} {
		t := fmt.Sprintf("%s: %s allocs/op = 0", k.msg, k.op)
		if got, ok := allocs[k]; ok {
			add(t, got, got == 0, "%g")
		} else {
			missing(t)
		}
	}

	if *md {
		fmt.Println("| target | measured | |")
		fmt.Println("| --- | ---: | --- |")
		for _, r := range rows {
			fmt.Printf("| %s | %s | %s |\n", r.target, r.measured, r.status)
		}
	} else {
		w := 0
		for _, r := range rows {
			w = max(w, len([]rune(r.target)))
		}
		for _, r := range rows {
			fmt.Printf("%-*s  %8s  %s\n", w, r.target, r.measured, r.status)
		}
	}
	pass := 0
	for _, r := range rows {
		if r.status == "PASS" {
			pass++
		}
	}
	fmt.Printf("\n%d of %d targets met\n", pass, len(rows))
}

// read returns the median sec/op and the median allocs/op of each benchmark.
func read(r io.Reader, name string) (secs, allocs map[key]float64, err error) {
	sec := map[key][]float64{}
	alloc := map[key][]float64{}
	br := benchfmt.NewReader(r, name)
	for br.Scan() {
		res, ok := br.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		base, parts := res.Name.Parts()
		k := key{msg: strings.TrimPrefix(string(base), "Benchmark")}
		for _, p := range parts {
			p := procs.ReplaceAllString(strings.TrimPrefix(string(p), "/"), "")
			if v, ok := strings.CutPrefix(p, "op="); ok {
				k.op = v
			} else if v, ok := strings.CutPrefix(p, "impl="); ok {
				k.impl = v
			}
		}
		if v, ok := res.Value("sec/op"); ok {
			sec[k] = append(sec[k], v)
		}
		if v, ok := res.Value("allocs/op"); ok {
			alloc[k] = append(alloc[k], v)
		}
	}
	if err := br.Err(); err != nil {
		return nil, nil, err
	}
	return medians(sec), medians(alloc), nil
}

func medians(m map[key][]float64) map[key]float64 {
	out := make(map[key]float64, len(m))
	for k, vs := range m {
		slices.Sort(vs)
		n := len(vs)
		if n%2 == 1 {
			out[k] = vs[n/2]
		} else {
			out[k] = (vs[n/2-1] + vs[n/2]) / 2
		}
	}
	return out
}
