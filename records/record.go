package records

import "strconv"

// Record is one record as RecordReader reads it. Key, Value and the
// headers alias the batch (or the Decompressor's buffer for compressed
// batches) until the next RecordReader.Reset; nil is null, a non-nil empty
// slice is empty. Reuse one Record across calls: Headers keeps its
// capacity.
type Record struct {
	// Offset is the record's absolute offset.
	Offset int64
	// Timestamp is the record's timestamp as Kafka reports it: the batch's
	// max timestamp (the append time) when the batch uses LogAppendTime,
	// else the base timestamp plus the delta; -1 in magic 0.
	Timestamp int64
	Key       []byte
	Value     []byte
	Headers   []Header
	// Attributes is the record's attribute byte (unused by Kafka in magic
	// 2; the message attributes in legacy formats).
	Attributes int8
	// OffsetDelta and TimestampDelta are the raw magic 2 deltas (0 in
	// legacy formats).
	OffsetDelta    int32
	TimestampDelta int64
	// Sequence is the producer sequence of the record, -1 without one.
	Sequence int32
	// Size is the record's encoded size: the length varint and body in
	// magic 2; the log overhead and message in legacy formats (Java's
	// sizeInBytes).
	Size int
}

// Header is a record header. Key is never null in Kafka's format.
type Header struct {
	Key   []byte
	Value []byte
}

// decodeV2 reads the record at data[p:] into r and returns the position
// after it. Offset, Timestamp and Sequence are left to the caller. It is
// the general decoder, which also names what is wrong: RecordReader.Next
// calls it for the records its fast path does not take, the bad ones among
// them.
func (r *Record) decodeV2(data []byte, p int) (int, *fieldError) {
	start := p
	length, p := readVarint(data, p, len(data), 5)
	if p < 0 {
		return 0, varintError("length", p)
	}
	end := p + int(length)
	switch {
	case length < 0:
		return 0, &fieldError{"length", strconv.FormatInt(length, 10), ErrInvalidLength}
	case end > len(data) || end < p:
		return 0, &fieldError{"length", strconv.FormatInt(length, 10) + " past the end (" + strconv.Itoa(len(data)-p) + " bytes left)", ErrTruncated}
	case length < 6: // attributes and five one-byte varints
		return 0, &fieldError{"length", strconv.FormatInt(length, 10) + " is less than the minimum 6", ErrInvalidLength}
	}
	r.Size = end - start
	r.Attributes = int8(data[p])
	p++
	if r.TimestampDelta, p = readVarint(data, p, end, 10); p < 0 {
		return 0, varintError("timestamp delta", p)
	}
	v, p := readVarint(data, p, end, 5)
	if p < 0 {
		return 0, varintError("offset delta", p)
	}
	r.OffsetDelta = int32(v)
	var fe *fieldError
	if r.Key, p, fe = varBytes(data, p, end, "key"); fe != nil {
		return 0, fe
	}
	if r.Value, p, fe = varBytes(data, p, end, "value"); fe != nil {
		return 0, fe
	}
	if v, p = readVarint(data, p, end, 5); p < 0 {
		return 0, varintError("header count", p)
	}
	// Each header takes at least two bytes: bound the count before growing.
	if v < 0 || v > int64(end-p)/2 {
		return 0, &fieldError{"header count", strconv.FormatInt(v, 10) + " with " + strconv.Itoa(end-p) + " bytes left", ErrInvalidLength}
	}
	r.Headers = r.Headers[:0]
	for i := int64(0); i < v; i++ {
		var h Header
		if h.Key, p, fe = varBytes(data, p, end, "header key"); fe != nil {
			return 0, fe
		}
		if h.Key == nil {
			return 0, &fieldError{"header key", "null", ErrInvalidLength}
		}
		if h.Value, p, fe = varBytes(data, p, end, "header value"); fe != nil {
			return 0, fe
		}
		r.Headers = append(r.Headers, h)
	}
	if p != end {
		return 0, &fieldError{"length", strconv.Itoa(end-p) + " bytes after the last header", ErrInvalidLength}
	}
	return end, nil
}

// varBytes reads a varint-length byte string within data[p:end], nil for
// -1.
func varBytes(data []byte, p, end int, field string) ([]byte, int, *fieldError) {
	n, p := readVarint(data, p, end, 5)
	if p < 0 {
		return nil, 0, varintError(field, p)
	}
	if n >= 0 && n <= int64(end-p) {
		q := p + int(n)
		return data[p:q:q], q, nil
	}
	if n < 0 {
		if n == -1 {
			return nil, p, nil
		}
		return nil, 0, &fieldError{field, "length " + strconv.FormatInt(n, 10), ErrInvalidLength}
	}
	return nil, 0, &fieldError{field, "length " + strconv.FormatInt(n, 10) + " past the end of the record (" + strconv.Itoa(end-p) + " bytes left)", ErrTruncated}
}

func varintError(field string, code int) *fieldError {
	if code == -1 {
		return &fieldError{field, "varint past the end", ErrTruncated}
	}
	return &fieldError{field, "", ErrMalformedVarint}
}
