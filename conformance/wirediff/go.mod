module github.com/kafkagen/kafkagen/conformance/wirediff

go 1.26.0

require (
	github.com/kafkagen/kafkagen v0.0.0
	github.com/stretchr/testify v1.12.1
	github.com/twmb/franz-go v1.22.3
)

require (
	github.com/xdg-go/scram v1.4.0 // indirect
	github.com/xdg-go/stringprep v1.0.4 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/text v0.3.8 // indirect
)

replace github.com/kafkagen/kafkagen => ../..
