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
