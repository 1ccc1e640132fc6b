package records

// Each calls fn with every record of the batches in blob (the []byte of a
// generated records field), in order: batches as a Reader reads them (a
// partial batch at the end is left out, as Kafka's consumers do), records
// as a RecordReader reads them, compressed ones decompressed through d (nil:
// one made for this call; pass one to reuse its buffers). The Record is
// reused: its key, value and headers alias blob or d's buffer, valid until
// fn returns. An error from fn stops the walk and is returned as it is; a
// malformed batch or record gives the *Error naming it.
func Each(blob []byte, d *Decompressor, fn func(*Record) error) error {
	if d == nil {
		d = new(Decompressor)
	}
	var (
		r   Reader
		rr  RecordReader
		rec Record
	)
	r.Reset(blob)
	for r.Next() {
		if err := rr.Reset(r.Batch(), d); err != nil {
			return err
		}
		for rr.Next(&rec) {
			if err := fn(&rec); err != nil {
				return err
			}
		}
		if err := rr.Err(); err != nil {
			return err
		}
	}
	return r.Err()
}
