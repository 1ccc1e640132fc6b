package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/kafkagen/kafkagen/generator/compat"
	"github.com/kafkagen/kafkagen/generator/schema"
)

func init() {
	commands["compat"] = command{
		summary: "check that new specs keep the wire format of old ones (spec evolution)",
		run:     runCompat,
	}
}

const compatUsage = `Usage: kafkagen compat -old PATH -new PATH [-old-release VERSION] [-new-release VERSION] [-v]

compat checks that the new specs can replace the old ones: every version both
define keeps its wire format, and nothing old readers and writers rely on
changes (api key, type, versions, flexible versions, and per field: type,
versions, tags, nullability, order, ignorable, defaults, names). -old and -new
are two spec files, or two folders searched recursively whose *.json files are
paired by file name. Each violation is printed on stdout as
file:line:col: Message.Field: what changed
located in the new file, or in the old one for what the new file no longer has.
Two kinds of findings are not violations and say so before their text:
"removed:" for request, response or header versions (or a whole API, as Kafka
4.0 removed LeaderAndIsr) that the new specs no longer have, which a peer
still sending them finds refused; "early access:" for changes at versions the
old specs declared early access (latestVersionUnstable, the response of such
a request, or a comment saying the schema "is subject to
non-backwards-compatible changes"), which promised nothing. Notes ("note:")
print with -v. To check two Kafka releases, give their checkouts (every spec
folder is searched) and the -old-release/-new-release of a 2.x one.

Flags:
`

// runCompat is the compat subcommand.
func runCompat(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("kafkagen compat", flag.ContinueOnError)
	flags.SetOutput(stderr)
	oldPath := flags.String("old", "", "the old spec file or folder")
	newPath := flags.String("new", "", "the new spec file or folder")
	oldRelease := flags.String("old-release", "", "Kafka release of the old specs, such as 2.8: load them as that release's generator did (default: the current rules)")
	newRelease := flags.String("new-release", "", "Kafka release of the new specs (default: the current rules)")
	verbose := flags.Bool("v", false, "also print notes: specs in one tree only, renamed struct types, retyped coordinator records...")
	flags.Usage = func() {
		fmt.Fprint(stderr, compatUsage)
		flags.PrintDefaults()
		fmt.Fprintf(stderr, "\nExit status: 0 no violations, 1 violations, 2 misuse, 3 a spec that does not\nload or a file that cannot be read (what it holds is not checked), 4 no\nviolations but removals.\n")
	}
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	misuse := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "kafkagen compat: "+format+"\n", args...)
		return 2
	}
	if flags.NArg() > 0 {
		return misuse("unexpected argument %q", flags.Arg(0))
	}
	if *oldPath == "" || *newPath == "" {
		return misuse("both -old and -new are required (kafkagen compat -h for help)")
	}
	var opts compat.Options
	var err error
	if opts.Old, err = schema.RulesFor(*oldRelease); err != nil {
		return misuse("-old-release: %v", err)
	}
	if opts.New, err = schema.RulesFor(*newRelease); err != nil {
		return misuse("-new-release: %v", err)
	}
	oldDir, err := isDir("-old", *oldPath)
	if err != nil {
		return misuse("%v", err)
	}
	newDir, err := isDir("-new", *newPath)
	if err != nil {
		return misuse("%v", err)
	}
	if oldDir != newDir {
		return misuse("-old and -new must be two folders or two files")
	}
	var report *compat.Report
	if oldDir {
		report, err = compat.CompareTrees(*oldPath, *newPath, opts)
	} else {
		report, err = compat.CompareFiles(*oldPath, *newPath, opts)
	}
	if err != nil {
		fmt.Fprintf(stderr, "kafkagen compat: %v\n", err)
		return exitUnchecked
	}
	return printReport(report, *verbose, stdout, stderr)
}

// isDir reports whether path is a folder, or fails when it does not exist.
func isDir(flagName, path string) (bool, error) {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("%s %s does not exist", flagName, path)
	}
	if err != nil {
		return false, fmt.Errorf("%s: %w", flagName, err)
	}
	return st.IsDir(), nil
}

// exitUnchecked is compat's exit status when a spec does not load or a
// file cannot be read: the check is incomplete, which a script must tell
// from "incompatible" (1).
const exitUnchecked = 3

// exitRemoved is compat's exit status when the only findings that matter
// are removals: versions (or APIs) the new specs no longer have, which
// break the peers still using them but change no shared version's bytes.
const exitRemoved = 4

// printReport prints the findings (notes only when verbose) and a summary
// on stderr, and returns the exit status.
func printReport(r *compat.Report, verbose bool, stdout, stderr io.Writer) int {
	unloaded := 0
	for _, f := range r.Findings {
		if f.Rule == compat.RuleLoad {
			unloaded++
		}
		if f.Severity == compat.Note && !verbose {
			continue
		}
		fmt.Fprintln(stdout, f)
	}
	violations := r.Violations() - unloaded
	removals, early, notes := r.Count(compat.Removal), r.Count(compat.EarlyAccess), r.Count(compat.Note)
	fmt.Fprintf(stderr, "kafkagen compat: %d of %d spec pairs compared, %d violation(s)", r.Compared, r.Pairs, violations)
	if removals > 0 {
		fmt.Fprintf(stderr, ", %d removal(s)", removals)
	}
	if early > 0 {
		fmt.Fprintf(stderr, ", %d early-access change(s)", early)
	}
	if unloaded > 0 {
		fmt.Fprintf(stderr, ", %d load problem(s)", unloaded)
	}
	switch {
	case notes > 0 && !verbose:
		fmt.Fprintf(stderr, ", %d note(s) (-v prints them)\n", notes)
	case notes > 0:
		fmt.Fprintf(stderr, ", %d note(s)\n", notes)
	default:
		fmt.Fprintln(stderr)
	}
	switch {
	case unloaded > 0:
		return exitUnchecked
	case violations > 0:
		return 1
	case removals > 0:
		return exitRemoved
	}
	return 0
}
