package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/kafkagen/kafkagen/dynamic"
	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/wire/frames"
)

func init() {
	commands["dump"] = command{
		summary: "print captured request or response frames as JSON, read with the specs alone",
		run:     runDump,
	}
}

const dumpUsage = `Usage: kafkagen dump -in SPECDIR [flags] [FILE...]

dump prints Kafka frames as JSON, one object per frame and line, reading them
with the spec files of SPECDIR at run time (nothing is generated or compiled,
so any Kafka version's frames can be read from its specs):

  {"name":"FetchRequest","version":12,"requestHeader":{...},"request":{...}}
  {"name":"FetchResponse","version":12,"responseHeader":{...},"response":{...}}

The header and message objects are what the generated AppendJSON writes
(kafkagen -json): Kafka's JsonConverter form. Each FILE holds one frame (no
size prefix; with -framed, a stream of them); with no FILE, stdin is a
stream of frames each preceded by its 4-byte size, as on the socket.

Requests name their api key and version in their header. Responses do not:
give them with -api-key and -version, or pair each response with its request
through the correlation id with -requests FILE (a stream of request frames).
With -message NAME -version V the frames are messages of any spec, without
a header (metadata log records, coordinator keys and values):

  {"name":"PartitionChangeRecord","version":0,"message":{...}}

A frame that cannot be read is reported on stderr with its position, the
field path and the byte offset within the frame, and the next one is read.

Flags:
`

// dumpConfig holds the parsed flags of dump.
type dumpConfig struct {
	in, release, requests, records string
	message                        string
	response, framed, omitTags     bool
	apiKey, version                int
	maxFrame                       int
}

// runDump is the dump subcommand.
func runDump(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var c dumpConfig
	flags := flag.NewFlagSet("kafkagen dump", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.StringVar(&c.in, "in", "", "folder of the spec files (the message folder of a Kafka checkout, with RequestHeader.json and ResponseHeader.json)")
	flags.StringVar(&c.release, "release", "", "Kafka release of the spec folder, such as 2.8 (default: the current rules)")
	flags.BoolVar(&c.response, "response", false, "the frames are responses (with -api-key and -version, or -requests)")
	flags.IntVar(&c.apiKey, "api-key", -1, "api key of the responses' requests")
	flags.IntVar(&c.version, "version", -1, "version of the responses' requests, or of the -message frames")
	flags.StringVar(&c.message, "message", "", "the frames are messages of the spec named NAME, without a header (with -version)")
	flags.StringVar(&c.requests, "requests", "", "a stream of size-prefixed request frames: responses are paired with them by correlation id (implies -response)")
	flags.BoolVar(&c.framed, "framed", false, "each FILE is a stream of size-prefixed frames, not one frame")
	flags.StringVar(&c.records, "records", "batches", "records fields as: batches (their batches and records), base64 (as AppendJSON writes them), size (Kafka's request log: <field>SizeInBytes)")
	flags.BoolVar(&c.omitTags, "omit-unknown-tags", false, "leave unknown tagged fields out, as Kafka's JsonConverter does (default: under \"_unknownTaggedFields\")")
	flags.IntVar(&c.maxFrame, "max-frame", 100<<20, "largest frame size a stream may announce (Kafka's socket.request.max.bytes)")
	flags.Usage = func() {
		fmt.Fprint(stderr, dumpUsage)
		flags.PrintDefaults()
		fmt.Fprintf(stderr, "\nExit status: 0 every frame printed, 1 a frame or stream could not be read, 2 misuse.\n")
	}
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	d, err := newDumper(&c, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "kafkagen dump: %v\n", err)
		var misuse usageError
		if errors.As(err, &misuse) {
			return 2
		}
		return 1
	}
	if flags.NArg() == 0 {
		d.stream("stdin", stdin)
	}
	for _, name := range flags.Args() {
		d.file(name, c.framed)
	}
	if err := d.out.Flush(); err != nil {
		fmt.Fprintf(stderr, "kafkagen dump: writing: %v\n", err)
		return 1
	}
	if d.failed {
		return 1
	}
	return 0
}

// usageError is a bad combination of flags (exit status 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// dumper reads frames and prints them.
type dumper struct {
	specs   *dynamic.Specs
	message *dynamic.Message // with -message
	cfg     *dumpConfig
	opts    dynamic.Options
	pairs   map[int32]apiVersion // correlation id -> request, with -requests
	out     *bufio.Writer
	stderr  io.Writer
	failed  bool
	buf     []byte
	records dynamic.RecordsWriter
}

type apiVersion struct{ key, version int16 }

func newDumper(c *dumpConfig, stdout, stderr io.Writer) (*dumper, error) {
	if c.in == "" {
		return nil, usageError{"-in SPECDIR is required (kafkagen dump -h for help)"}
	}
	if c.requests != "" {
		c.response = true
	}
	switch {
	case c.message != "" && (c.response || c.apiKey >= 0):
		return nil, usageError{"-message frames have no header: -response, -requests and -api-key do not apply"}
	case c.message != "" && c.version < 0:
		return nil, usageError{"-message needs -version"}
	case c.message == "" && !c.response && (c.apiKey >= 0 || c.version >= 0):
		return nil, usageError{"-api-key and -version describe responses: add -response"}
	case c.response && c.requests == "" && (c.apiKey < 0 || c.version < 0):
		return nil, usageError{"responses need -api-key and -version, or -requests FILE"}
	case c.requests != "" && (c.apiKey >= 0 || c.version >= 0):
		return nil, usageError{"give either -requests or -api-key and -version, not both"}
	case c.apiKey > 0x7fff || c.version > 0x7fff:
		return nil, usageError{"-api-key and -version are 16-bit"}
	case c.maxFrame <= 0:
		return nil, usageError{fmt.Sprintf("-max-frame %d: must be at least 1", c.maxFrame)}
	}
	d := &dumper{cfg: c, out: bufio.NewWriter(stdout), stderr: stderr}
	d.opts.OmitUnknownTags = c.omitTags
	switch c.records {
	case "batches":
		d.opts.Records = d.records.Append
	case "base64":
	case "size":
		d.opts.RecordsSize = true
	default:
		return nil, usageError{fmt.Sprintf("-records %q: want batches, base64 or size", c.records)}
	}
	rules, err := schema.RulesFor(c.release)
	if err != nil {
		return nil, usageError{fmt.Sprintf("-release: %v", err)}
	}
	if st, err := os.Stat(c.in); err != nil || !st.IsDir() {
		return nil, usageError{fmt.Sprintf("-in %s is not a folder", c.in)}
	}
	loaded, err := rules.LoadDir(c.in)
	if err != nil {
		return nil, fmt.Errorf("loading the specs: %w", err)
	}
	d.specs = dynamic.New(loaded)
	if c.message != "" {
		if d.message = d.specs.Message(c.message); d.message == nil {
			return nil, usageError{fmt.Sprintf("-message %s: no spec of that name in %s", c.message, c.in)}
		}
		return d, nil
	}
	if err := d.specs.Framing(); err != nil {
		return nil, fmt.Errorf("%s: %w", c.in, err)
	}
	if c.requests != "" {
		if err := d.readRequests(c.requests); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// readRequests maps the correlation ids of a request stream to the api key
// and version of each request, from the first 8 bytes of their headers.
func (d *dumper) readRequests(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return fmt.Errorf("-requests: %w", err)
	}
	defer f.Close()
	d.pairs = map[int32]apiVersion{}
	return eachFrame(bufio.NewReader(f), d.cfg.maxFrame, func(i, _ int, frame []byte) {
		if len(frame) >= 8 {
			d.pairs[int32(binary.BigEndian.Uint32(frame[4:]))] = apiVersion{
				int16(binary.BigEndian.Uint16(frame)), int16(binary.BigEndian.Uint16(frame[2:]))}
		}
	})
}

// file dumps a file holding one frame, or with framed a stream of them.
func (d *dumper) file(name string, framed bool) {
	if framed {
		f, err := os.Open(name)
		if err != nil {
			d.fail("%v", err)
			return
		}
		defer f.Close()
		d.stream(name, f)
		return
	}
	frame, err := os.ReadFile(name)
	if err != nil {
		d.fail("%v", err)
		return
	}
	d.frame(name, frame)
}

// stream dumps a stream of size-prefixed frames.
func (d *dumper) stream(name string, r io.Reader) {
	err := eachFrame(bufio.NewReader(r), d.cfg.maxFrame, func(i, pos int, frame []byte) {
		d.frame(fmt.Sprintf("%s: frame %d at byte %d", name, i, pos), frame)
	})
	if err != nil {
		d.fail("%s: %v", name, err)
	}
}

// eachFrame calls fn with each frame of a stream of 4-byte-size-prefixed
// frames, its index and the position of its size prefix. A stream that
// ends inside a frame or announces an impossible size stops with an error:
// the frames after it cannot be found.
func eachFrame(r io.Reader, maxFrame int, fn func(i, pos int, frame []byte)) error {
	fr := frames.NewFrameReader(r, maxFrame)
	pos := 0
	for i := 0; ; i++ {
		frame, err := fr.Next()
		var refused *frames.FrameSizeError
		switch {
		case err == io.EOF:
			return nil
		case errors.As(err, &refused):
			return fmt.Errorf("frame %d at byte %d: size %d is outside 0 to %d (-max-frame); the rest of the stream cannot be framed", i, pos, refused.Size, refused.Max)
		case err != nil:
			return fmt.Errorf("frame %d at byte %d: %w", i, pos, err)
		}
		fn(i, pos, frame)
		pos += 4 + len(frame)
	}
}

// frame decodes one frame and prints it, or reports why it cannot.
func (d *dumper) frame(where string, frame []byte) {
	var f *dynamic.Frame
	var err error
	switch {
	case d.message != nil:
		f, err = d.message.DecodeFrame(frame, int16(d.cfg.version))
	case !d.cfg.response:
		f, err = d.specs.DecodeRequest(frame)
	case d.pairs != nil:
		if len(frame) < 4 {
			d.fail("%s: %d bytes, too short for a correlation id", where, len(frame))
			return
		}
		corr := int32(binary.BigEndian.Uint32(frame))
		req, ok := d.pairs[corr]
		if !ok {
			d.fail("%s: no request in -requests has correlation id %d", where, corr)
			return
		}
		f, err = d.specs.DecodeResponse(frame, req.key, req.version)
	default:
		f, err = d.specs.DecodeResponse(frame, int16(d.cfg.apiKey), int16(d.cfg.version))
	}
	if err == nil {
		d.buf, err = f.AppendJSON(d.buf[:0], d.opts)
	}
	if err != nil {
		d.fail("%s: %v", where, err)
		return
	}
	d.buf = append(d.buf, '\n')
	d.out.Write(d.buf)
	d.out.Flush() // a live capture piped in shows each frame as it comes
}

func (d *dumper) fail(format string, args ...any) {
	d.failed = true
	d.out.Flush() // keep stdout and stderr in order
	fmt.Fprintf(d.stderr, "kafkagen dump: "+format+"\n", args...)
}
