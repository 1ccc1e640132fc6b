package records

// Reader iterates the batches of a records blob (the []byte of a
// generated `records` field) in place: each Batch aliases the blob, and
// nothing is allocated.
//
// A batch cut short at the end of the blob (a broker stops a Fetch
// response at its byte limit) ends the iteration without an error: Tail
// returns those bytes, as Kafka's clients skip them. Set Complete where a
// partial batch is an error (a Produce request).
//
//	var r records.Reader
//	r.Reset(blob)
//	for r.Next() {
//		b := r.Batch()
//		...
//	}
//	if err := r.Err(); err != nil { ... }
type Reader struct {
	// Complete makes a partial batch at the end an ErrTruncated error.
	Complete bool
	// SkipCRC trusts the stored checksums (a log reading its own batches).
	SkipCRC bool

	src   []byte
	pos   int
	tail  []byte
	err   error
	batch Batch
}

// Reset starts iterating blob, keeping Complete and SkipCRC.
func (r *Reader) Reset(blob []byte) {
	r.src, r.pos, r.tail, r.err = blob, 0, nil, nil
}

// Next reads the next batch, reporting false at the end of the blob, at a
// partial tail, or at an error.
func (r *Reader) Next() bool {
	if r.err != nil || r.pos >= len(r.src) {
		return false
	}
	rest := r.src[r.pos:]
	switch res, err := r.batch.parse(rest, r.pos, !r.SkipCRC); res {
	case readOK:
		r.pos += len(r.batch.Raw)
		return true
	case readPartial:
		if r.Complete {
			r.err = partialError(rest, r.pos)
		} else {
			r.tail = rest
		}
	default:
		r.err = err
	}
	r.pos = len(r.src)
	return false
}

// Batch is the batch Next read; it is overwritten by the next call.
func (r *Reader) Batch() *Batch { return &r.batch }

// Err is the error that stopped the iteration, nil at the end or at a
// partial tail.
func (r *Reader) Err() error { return r.err }

// Tail is the partial batch the blob ended with, nil if it ended on a
// batch boundary (or Complete is set).
func (r *Reader) Tail() []byte { return r.tail }
