// Command kafkagen generates Go encoders and decoders from Apache Kafka's
// JSON message specs.
//
//	kafkagen [-in DIR] [-out DIR] [-package NAME] [-check] [-release VERSION]
//	kafkagen COMMAND [flags]   (see subcommands below)
//
// With no flags it regenerates generated/ from schemas/. A run that succeeds
// prints one line on stdout ("wrote 23 files to generated (2 changed)", or
// for -check "checked 23 files in generated: up to date"). Exit status: 0 on
// success, 1 when the specs have problems or the output is stale, 2 on misuse
// (bad flags, a package name Go refuses or reserves, an input that is not a
// folder of specs, an output that is not a folder), in one line of stderr.
package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/kafkagen/kafkagen/generator"
	"github.com/kafkagen/kafkagen/generator/schema"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// command is a subcommand: it gets the arguments after its name and returns
// the exit status.
type command struct {
	summary string // one line for the usage text
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// commands holds the subcommands by name. Each lives in a file of its own
// and registers itself from an init function, so that adding one touches
// nothing here.
var commands = map[string]command{}

// stdin is os.Stdin; tests replace it.
var stdin io.Reader = os.Stdin

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if c, ok := commands[args[0]]; ok {
			return c.run(args[1:], stdin, stdout, stderr)
		}
	}
	return generate(args, stdout, stderr)
}

// generate is the default command: generate one package from a spec folder.
func generate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("kafkagen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	opts := generator.Config{}
	opts.In = "schemas"
	var ins []string
	fs.Func("in", "folder of Kafka JSON spec files (*.json) (default \"schemas\"); given more than once, the folders of several Kafka releases make one package holding the union of their versions", func(v string) error {
		ins = append(ins, v)
		return nil
	})
	fs.StringVar(&opts.Out, "out", "generated", "output folder: one Go package")
	fs.StringVar(&opts.Package, "package", "", "Go package name (default: the output folder's name)")
	fs.BoolVar(&opts.Check, "check", false, "write nothing; exit 1 if the output folder is not what would be generated")
	fs.StringVar(&opts.Release, "release", "", "Kafka release of the spec folder, such as 2.8: accept its specs as that release's generator did (default: the current rules)")
	fs.BoolVar(&opts.Printed, "printed", false, "print the encode and decode methods of every message: by default those of the APIs off the data path (admin, controller, raft...) are tables the runtime reads, which build faster (the client package in 70% of the time) and run slower (decode still faster than kmsg's, encode at about 1.2x its time)")
	fs.BoolVar(&opts.JSON, "json", false, "also generate AppendJSON/DecodeJSON/MarshalJSON/UnmarshalJSON in Kafka's JSON form (a <spec>_json.go file per spec)")
	var valueErr error // the first bad value of -messages or -min-version
	fs.Func("messages", "generate only these `LIST`, comma-separated: spec names (FetchRequest), API names (Fetch) or API keys (1), in any case; an API brings its request, response and the header specs", func(v string) error {
		names, err := parseMessages(v)
		opts.Prune.Messages = append(opts.Prune.Messages, names...)
		valueErr = cmp.Or(valueErr, err)
		return nil
	})
	fs.Func("min-version", "generate requests and responses from `VERSION` up (lower versions are refused with runtime.ErrUnsupportedVersion); NAME=VERSION items, comma-separated, set the floor of single APIs, named as in -messages (4,Metadata=1). ApiVersions keeps v0 unless named: a broker answers an ApiVersions version it lacks in v0 (KIP-511)", func(v string) error {
		all, floors, err := parseMinVersion(v)
		if all >= 0 {
			opts.Prune.MinVersion = all
		}
		for name, floor := range floors {
			if opts.Prune.MinVersions == nil {
				opts.Prune.MinVersions = map[string]int16{}
			}
			opts.Prune.MinVersions[name] = floor
		}
		valueErr = cmp.Or(valueErr, err)
		return nil
	})
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: kafkagen [-in DIR]... [-out DIR] [-package NAME] [-check] [-release VERSION] [-json]\n"+
			"                [-messages LIST] [-min-version VERSION] [-printed]\n\n"+
			"kafkagen generates Go encoders and decoders from Apache Kafka JSON message specs:\n"+
			"one Go file per spec in -in, all in one package in -out. With no flags it\n"+
			"regenerates generated/ from schemas/. Hand-written files in -out are kept;\n"+
			"a failed run leaves -out exactly as it was. A run prints one line saying\n"+
			"what it wrote (or checked).\n\nFlags:\n")
		fs.PrintDefaults()
		fmt.Fprintf(stderr, "\nExit status: 0 success, 1 spec problems or stale output, 2 misuse.\n")
		printCommands(stderr)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "kafkagen: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	if valueErr != nil {
		fmt.Fprintf(stderr, "kafkagen: %v (kafkagen -h for usage)\n", valueErr)
		return 2
	}
	if len(ins) > 0 {
		opts.In, opts.Union = ins[0], ins[1:]
	}
	if err := defaultInput(fs, opts.In); err != nil {
		fmt.Fprintf(stderr, "kafkagen: %v (kafkagen -h for usage)\n", err)
		return 2
	}
	summary, err := generator.Run(opts)
	var diags schema.Diagnostics
	switch {
	case err == nil:
		fmt.Fprintln(stdout, summary)
		return 0
	case errors.As(err, &diags):
		fmt.Fprintln(stderr, diags.Error())
		fmt.Fprintf(stderr, "kafkagen: %d problem(s); nothing written\n", len(diags))
		return 1
	case errors.Is(err, generator.ErrConfig):
		fmt.Fprintf(stderr, "kafkagen: %v (kafkagen -h for usage)\n", err)
		return 2
	case errors.Is(err, generator.ErrStale):
		fmt.Fprintf(stderr, "kafkagen: %v\n", err)
		return 1
	default:
		fmt.Fprintf(stderr, "kafkagen: %v\n", err)
		return 1
	}
}

// defaultInput explains what a run with no -in expected when the default
// input, schemas/ (this repository's own specs), is not there: in a user's
// module, go tool kafkagen needs -in and -out.
func defaultInput(fs *flag.FlagSet, in string) error {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "in" })
	if _, err := os.Stat(in); given || !errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return fmt.Errorf("no -in, and no %s folder here to read by default: give -in, a folder of Kafka spec files (such as a Kafka checkout's clients/src/main/resources/common/message), and -out, the package folder to write", in)
}

// printCommands lists the subcommands, sorted, for the usage text.
func printCommands(w io.Writer) {
	if len(commands) == 0 {
		return
	}
	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	fmt.Fprintf(w, "\nCommands (kafkagen COMMAND -h for their flags):\n")
	for _, name := range names {
		fmt.Fprintf(w, "  %-8s %s\n", name, commands[name].summary)
	}
}
