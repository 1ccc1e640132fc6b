// Package wirediff is a differential test of wire's table of Kafka error
// codes against franz-go's kerr: every code, name, message and retriable
// flag. It lives in the conformance/diff module so that kerr never enters the
// main module.
package wirediff
