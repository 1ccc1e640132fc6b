// Package runtime is the small library that kafkagen's generated code is
// built on: append-style encoders and size functions for Kafka's primitive
// types, a Reader with a sticky error for decoding, value types for nullable
// strings and unknown tagged fields, the Message interfaces and the errors
// generated code returns. It imports only the standard library.
package runtime
