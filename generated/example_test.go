package generated_test

import (
	"errors"
	"fmt"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
)

// Encode a message at a version and decode it back. The version is a
// parameter of every call: one Go type serves every version of its spec.
func Example() {
	req := generated.NewAPIVersionsRequest()
	req.ClientSoftwareName, req.ClientSoftwareVersion = "app", "1.0"
	buf, err := req.AppendTo(nil, 3)
	if err != nil {
		panic(err)
	}
	fmt.Printf("v3: % x (Size %d)\n", buf, req.Size(3))

	var back generated.APIVersionsRequest // or reuse one: Decode resets it
	n, err := back.Decode(buf, 3)
	if err != nil {
		panic(err)
	}
	fmt.Printf("read %d bytes: %q %q\n", n, back.ClientSoftwareName, back.ClientSoftwareVersion)

	// Version 2 lacks both fields; they are ignorable, so they are dropped.
	buf, _ = req.AppendTo(buf[:0], 2)
	fmt.Printf("v2: %d bytes\n", len(buf))

	_, err = req.AppendTo(nil, 9)
	fmt.Println(errors.Is(err, runtime.ErrUnsupportedVersion), err)
	// Output:
	// v3: 04 61 70 70 04 31 2e 30 00 (Size 9)
	// read 9 bytes: "app" "1.0"
	// v2: 0 bytes
	// true kafka encode ApiVersionsRequest v9: unsupported version: valid versions are 0 to 4
}

// A server picks the request type from the API key of the header, then
// decodes the body at the header's version.
func ExampleNewRequest() {
	body := []byte{0x04, 'a', 'p', 'p', 0x04, '1', '.', '0', 0x00}
	req := generated.NewRequest(generated.APIKeyAPIVersions)
	if _, err := req.Decode(body, 3); err != nil {
		panic(err)
	}
	fmt.Println(req.SpecName(), "versions", req.MinVersion(), "to", req.MaxVersion(), "header version", req.HeaderVersion(3))
	if r, ok := req.(*generated.APIVersionsRequest); ok {
		fmt.Println(r.ClientSoftwareName)
	}
	// Output:
	// ApiVersionsRequest versions 0 to 4 header version 2
	// app
}

// A decoding error names the message, the field, the version and the byte
// offset, and matches runtime's sentinels. An array count is checked
// against the bytes left before anything is allocated.
func ExampleAPIVersionsResponse_Decode() {
	resp := generated.NewAPIVersionsResponse()
	_, err := resp.Decode([]byte{0x00, 0x00, 0x7f, 0x00}, 3) // error 0, then 126 entries (compact count 127)
	fmt.Println(errors.Is(err, runtime.ErrInvalidLength))
	fmt.Println(err)
	// Output:
	// true
	// kafka decode ApiVersionsResponse.ApiKeys v3 at byte 2: invalid length: array of 126 elements, but only 2 bytes remain
}

// Nested values are built with the Make constructors, which hold the
// spec's defaults: here DestinationOffset and Lag stay -1 ("unknown"),
// where a composite literal would have sent 0.
func ExampleMakeDescribeMirrorsResponsePartitionDetail() {
	p := generated.MakeDescribeMirrorsResponsePartitionDetail()
	p.PartitionIndex, p.SourceOffset = 3, 120

	topic := generated.MakeDescribeMirrorsResponseTopicPartitions()
	topic.TopicName = "orders"
	topic.Partitions = append(topic.Partitions, p)

	mirror := generated.MakeDescribeMirrorsResponseDescribedMirror()
	mirror.MirrorName = "dr"
	mirror.Topics = append(mirror.Topics, topic)

	resp := generated.NewDescribeMirrorsResponse()
	resp.Mirrors = append(resp.Mirrors, mirror)
	buf, err := resp.AppendTo(nil, 0)
	if err != nil {
		panic(err)
	}

	var back generated.DescribeMirrorsResponse
	if _, err := back.Decode(buf, 0); err != nil {
		panic(err)
	}
	got := back.Mirrors[0].Topics[0].Partitions[0]
	fmt.Println(got.PartitionIndex, got.SourceOffset, got.DestinationOffset, got.Lag)
	literal := generated.DescribeMirrorsResponsePartitionDetail{PartitionIndex: 3, SourceOffset: 120}
	fmt.Println(literal.DestinationOffset, literal.Lag)
	// Output:
	// 3 120 -1 -1
	// 0 0
}

// A message decoded with DecodeAliased points into the buffer it was read
// from; Clone gives a copy that outlives the buffer, to keep past the next
// frame (a proxy's filter keeping a request until its response, say).
func ExampleAPIVersionsRequest_Clone() {
	buf := []byte{0x04, 'a', 'p', 'p', 0x04, '1', '.', '0', 0x00}
	var req generated.APIVersionsRequest
	if _, err := req.DecodeAliased(buf, 3); err != nil {
		panic(err)
	}
	kept := req.Clone()
	copy(buf, "\x04xyz\x04zzz\x00") // the buffer is reused for the next frame
	fmt.Println(req.ClientSoftwareName, kept.ClientSoftwareName)
	// Output:
	// xyz app
}
