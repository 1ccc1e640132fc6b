package proxy

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/kafkagen/kafkagen/runtime"
)

// Log is a filter that writes one JSON line per exchange, as Kafka's request
// log does: the request header, the request and the response in Kafka's
// JSON form (the generated AppendJSON of a package made with kafkagen -json,
// through runtime.JSONMessage), then the connection and the time taken:
//
//	{"requestHeader":{"requestApiKey":3,"requestApiVersion":12,"correlationId":5,"clientId":"app"},
//	 "request":{...},"response":{...},"connection":"127.0.0.1:50312","upstream":"10.0.0.7:9092",
//	 "nodeId":-1,"totalTimeMs":0.84}
//
// Secrets are redacted: SASL auth bytes, SCRAM salts and salted passwords,
// delegation token HMACs, and the values of configs whose names say they
// hold a password or key. A request Kafka does not answer
// (Produce with acks 0) has "response":null. Apis and versions the package
// does not read are relayed unlogged.
type Log struct {
	// Options choose the JSON form; by default Kafka's request log form
	// (records by size, unknown tags left out).
	Options runtime.JSONOptions
	known   func(apiKey, version int16) bool

	mu sync.Mutex
	w  io.Writer
}

// NewLog writes to w the exchanges of the apis newRequest (a generated
// package's NewRequest) reads. It refuses a package made without
// kafkagen -json, whose messages have no JSON form to log.
func NewLog(w io.Writer, newRequest func(apiKey int16) runtime.APIMessage) (*Log, error) {
	if err := checkJSON(newRequest); err != nil {
		return nil, err
	}
	known := func(key, version int16) bool {
		m := newRequest(key)
		return m != nil && version >= m.MinVersion() && version <= m.MaxVersion()
	}
	return &Log{Options: runtime.JSONRequestLog, known: known, w: w}, nil
}

// checkJSON refuses a package none of whose requests has the JSON methods
// of kafkagen -json (a package is generated with them or without them).
func checkJSON(newRequest func(apiKey int16) runtime.APIMessage) error {
	var first runtime.APIMessage
	for key := range int16(maxAPIKey) {
		m := newRequest(key)
		if m == nil {
			continue
		}
		if _, ok := m.(runtime.JSONMessage); ok {
			return nil
		}
		if first == nil {
			first = m
		}
	}
	if first == nil {
		return errors.New("proxy: NewLog: the generated package has no requests")
	}
	return fmt.Errorf("proxy: NewLog: the generated package has no JSON form (%s has no AppendJSON): regenerate it with kafkagen -json", first.SpecName())
}

// Wants every request and response the package reads.
func (l *Log) Wants(key, version int16) (requests, responses bool) {
	k := l.known(key, version)
	return k, k
}

// Request renders the header and the request, kept until the response.
func (l *Log) Request(x *Exchange) error {
	line := make([]byte, 0, 512)
	line = append(line, `{"requestHeader":{"requestApiKey":`...)
	line = strconv.AppendInt(line, int64(x.Header.APIKey), 10)
	line = append(line, `,"requestApiVersion":`...)
	line = strconv.AppendInt(line, int64(x.Header.APIVersion), 10)
	line = append(line, `,"correlationId":`...)
	line = strconv.AppendInt(line, int64(x.Header.CorrelationID), 10)
	line = append(line, `,"clientId":`...)
	line = appendJSONString(line, x.Header.ClientID)
	line = append(line, `},"request":`...)
	line = l.appendMessage(line, x.Request, x.Header.APIVersion)
	if x.Unanswered {
		l.finish(line, x, nil)
		return nil
	}
	x.SetState(line)
	return nil
}

// Response completes the line and writes it.
func (l *Log) Response(x *Exchange) error {
	line, _ := x.State().([]byte)
	l.finish(line, x, x.Response)
	return nil
}

// finish appends the response (or null) and the connection, and writes the
// line.
func (l *Log) finish(line []byte, x *Exchange, resp runtime.APIMessage) {
	line = append(line, `,"response":`...)
	if resp == nil {
		line = append(line, "null"...)
	} else {
		line = l.appendMessage(line, resp, x.ResponseVersion)
	}
	line = append(line, `,"connection":`...)
	line = appendJSONString(line, runtime.NewNullString(x.Conn.Client.String()))
	line = append(line, `,"upstream":`...)
	line = appendJSONString(line, runtime.NewNullString(x.Conn.Upstream))
	line = append(line, `,"nodeId":`...)
	line = strconv.AppendInt(line, int64(x.Conn.NodeID), 10)
	line = append(line, `,"totalTimeMs":`...)
	line = strconv.AppendFloat(line, float64(time.Since(x.Started).Microseconds())/1000, 'f', -1, 64)
	line = append(line, "}\n"...)
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = l.w.Write(line) // a log that cannot be written does not stop the traffic
}

// appendMessage appends m in Kafka's JSON form at version, redacted; a
// message that cannot be rendered is an object saying why.
func (l *Log) appendMessage(dst []byte, m runtime.APIMessage, version int16) []byte {
	j, ok := m.(runtime.JSONMessage)
	if !ok {
		return appendJSONError(dst, m.SpecName()+" has no AppendJSON: generate the package with kafkagen -json")
	}
	start := len(dst)
	out, err := j.AppendJSON(dst, version, l.Options)
	if err != nil {
		return appendJSONError(dst, err.Error())
	}
	return append(out[:start], redactJSON(out[start:])...)
}

func appendJSONError(dst []byte, msg string) []byte {
	dst = append(dst, `{"error":`...)
	dst = appendJSONString(dst, runtime.NewNullString(msg))
	return append(dst, '}')
}

// appendJSONString appends s as a JSON string, or null.
func appendJSONString(dst []byte, s runtime.NullString) []byte {
	if !s.Valid {
		return append(dst, "null"...)
	}
	b, _ := json.Marshal(s.Value) // a string always marshals
	return append(dst, b...)
}
