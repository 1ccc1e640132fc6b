// Package records reads and writes Kafka's record formats: the []byte of a
// generated `records` field (Produce and Fetch) holds record batches
// (magic 2) or, from old clients and brokers, legacy message sets (magic 0
// and 1).
//
// Reading is in place and allocation-free: a Reader iterates the batches of
// a blob (each Batch aliases it, its CRC checked, a partial batch at the
// end reported by Tail rather than as an error), and a RecordReader
// iterates a batch's records into one reused Record whose key, value and
// headers alias the batch, or a Decompressor's reused buffer when the batch
// is compressed; Each walks every record of a blob with the two. Every
// error is an *Error naming the batch's byte position
// and base offset, the record, the field and what is wrong, and wraps one
// of the Err sentinels.
//
// Writing: a BatchBuilder builds v2 batches (producer state, transactional
// and control flags, LogAppendTime, delete horizon, compression), in its
// own buffer (AppendTo copies the batch out) or straight into the
// caller's (Start, Finish), and AppendEndTxnMarker a transaction marker.
// AppendMessage and MessageSetBuilder write legacy messages and compressed
// wrappers. A broker appending to its log assigns offsets with
// AssignOffsets, in place wherever the format allows.
//
// Compression: gzip, snappy (Java's xerial framing, and raw blocks), lz4
// (KIP-57 frames, magic 0's old header checksum included) and zstd, on
// klauspost/compress and pierrec/lz4. Codecs sit behind the Codec
// interface, so a level or a whole implementation can be replaced, and are
// created once per Compressor or Decompressor, never per batch.
// Decompression is bounded (Decompressor.Limit, DefaultLimit): a
// compressed bomb fails with ErrTooLarge before the output grows past the
// limit.
//
// Checksums: CRC32C folds the bytes with VPCLMULQDQ where the CPU has
// AVX-512 (about four times hash/crc32 on a batch), and is hash/crc32's
// elsewhere and under the purego build tag.
//
// Nothing here is safe for concurrent use: give each goroutine its own
// Reader, RecordReader, Decompressor, Compressor and builder.
package records
