module github.com/kafkagen/kafkagen/conformance/kmsgdiff

go 1.26.0

require (
	github.com/kafkagen/kafkagen v0.0.0
	github.com/stretchr/testify v1.12.1
	github.com/twmb/franz-go/pkg/kmsg v1.15.1
)

require (
	github.com/tidwall/gjson v1.20.4 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.3.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)

replace github.com/kafkagen/kafkagen => ../..
