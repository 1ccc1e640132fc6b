package main

import (
	"strconv"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
)

// apiName is an API's name as Kafka spells it ("Produce", "ApiVersions"),
// or "Unknown<key>" for a key the generated package does not know.
func apiName(key int16) string {
	if name := kafkamsg.APIKeyName(key); name != "" {
		return name
	}
	return "Unknown" + strconv.Itoa(int(key))
}
