module github.com/kafkagen/kafkagen/examples/broker

go 1.26

replace github.com/kafkagen/kafkagen => ../..

require (
	github.com/dave/jennifer v1.7.1 // indirect
	github.com/kafkagen/kafkagen v0.0.0 // indirect
	github.com/tidwall/gjson v1.20.2 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.3.0 // indirect
)

tool github.com/kafkagen/kafkagen/cmd/kafkagen
