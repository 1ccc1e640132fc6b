package roundtrip

import (
	"fmt"
	"runtime"

	kruntime "github.com/kafkagen/kafkagen/runtime"
)

// bombs are lengths and counts written over an encoding: int32 and int16
// maxima and uvarints near 2^31 and 2^32, as a hostile peer would send.
var bombs = [][]byte{
	{0x7f, 0xff, 0xff, 0xff},       // int32 2^31-1
	{0x7f, 0xff, 0xff, 0xf0},       // int32 near 2^31
	{0x7f, 0xff},                   // int16 32767
	{0xff, 0xff, 0xff, 0xff, 0x0f}, // uvarint 2^32-1
	{0xfe, 0xff, 0xff, 0xff, 0x07}, // uvarint 2^31-2
	{0x80, 0x80, 0x80, 0x80, 0x08}, // uvarint 2^31
	{0xff, 0xff, 0xff, 0x7f},       // uvarint 2^28-1
	{0xff, 0xff, 0x03},             // uvarint 65535
}

// AllocBound is the most a decode of n bytes may allocate.
func AllocBound(n int) uint64 { return 1<<20 + 256*uint64(n) }

// BombResult counts what Bombs tried.
type BombResult struct {
	Inputs   int // hostile inputs decoded
	Rejected int // of which Decode returned an error
	MaxBytes uint64
}

// Bombs writes every bomb at every offset of a valid encoding src and
// decodes the result with Decode and DecodeAliased into reused messages,
// failing when a decode allocates more than AllocBound of the input size.
func Bombs(newMsg func() kruntime.Message, src []byte, version int16) (BombResult, error) {
	var res BombResult
	copyMsg, aliasMsg := newMsg(), newMsg()
	buf := make([]byte, len(src))
	var before, after runtime.MemStats
	for off := 0; off < len(src); off++ {
		for _, bomb := range bombs {
			copy(buf, src)
			copy(buf[off:], bomb)
			for _, alias := range []bool{false, true} {
				msg := copyMsg
				if alias {
					msg = aliasMsg
				}
				runtime.ReadMemStats(&before)
				var err error
				if alias {
					_, err = msg.DecodeAliased(buf, version)
				} else {
					_, err = msg.Decode(buf, version)
				}
				runtime.ReadMemStats(&after)
				used := after.TotalAlloc - before.TotalAlloc
				res.Inputs++
				if err != nil {
					res.Rejected++
				}
				res.MaxBytes = max(res.MaxBytes, used)
				if used > AllocBound(len(buf)) {
					return res, fmt.Errorf("%x at offset %d: decoding %d bytes allocated %d bytes (bound %d)", bomb, off, len(buf), used, AllocBound(len(buf)))
				}
			}
		}
	}
	return res, nil
}
