package downstream_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"example.com/downstream/messages"
	"github.com/kafkagen/kafkagen/runtime"
)

// The JSON methods that -json adds write Kafka's JsonConverter form at a
// version, and read it back strictly; unknown tagged fields ride along, so
// wire -> JSON -> wire gives the original bytes.
func Example_json() {
	resp := messages.NewBrokerHeartbeatResponse()
	resp.ActiveControllerID, resp.NextState, resp.BrokerEpoch = 3000, 3, 42
	resp.UnknownTags = runtime.Tags{{Tag: 5, Data: []byte{0xab, 0xcd}}}
	text, err := resp.AppendJSON(nil, 0, runtime.JSONOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(text))

	back := messages.NewBrokerHeartbeatResponse()
	if err := back.DecodeJSON(text, 0); err != nil {
		panic(err)
	}
	wire, _ := resp.AppendTo(nil, 0)
	again, _ := back.AppendTo(nil, 0)
	fmt.Println("same bytes:", bytes.Equal(wire, again))

	// encoding/json takes the latest version, or any with VersionedJSON.
	out, _ := json.Marshal(runtime.VersionedJSON{Message: resp, Version: 0})
	fmt.Println("json.Marshal writes the same:", bytes.Equal(out, text))

	err = back.DecodeJSON([]byte(`{"throttleTimeMs":0,"errorCode":0,"activeControllerId":1,"nextState":3,"brokerEpoch":"42","leaseDurationMs":0}`), 0)
	fmt.Println(errors.Is(err, runtime.ErrJSONType), err)
	// Output:
	// {"throttleTimeMs":0,"errorCode":0,"activeControllerId":3000,"nextState":3,"brokerEpoch":42,"leaseDurationMs":0,"_unknownTaggedFields":[{"tag":5,"data":"q80="}]}
	// same bytes: true
	// json.Marshal writes the same: true
	// true kafka unmarshal JSON BrokerHeartbeatResponse.brokerEpoch v0 at byte 85: wrong JSON value for the field: expected an integer, found a string
}
