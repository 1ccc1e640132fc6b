// Package wirediff is a differential test of wire's table of Kafka error
// codes against franz-go's kerr: every code, name, message and retriable
// flag. It is a module of its own so that kerr never enters the main module.
package wirediff
