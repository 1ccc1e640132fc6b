module github.com/kafkagen/kafkagen/conformance/wirediff

go 1.26.0

require (
	github.com/kafkagen/kafkagen v0.0.0
	github.com/stretchr/testify v1.12.1
	github.com/twmb/franz-go v1.22.3
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect

replace github.com/kafkagen/kafkagen => ../..
