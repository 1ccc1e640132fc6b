module example.com/downstream

go 1.26.0

// Until kafkagen is published, the module comes from this checkout.
replace github.com/kafkagen/kafkagen => ../..

tool github.com/kafkagen/kafkagen/cmd/kafkagen

require github.com/kafkagen/kafkagen v0.0.0

require (
	github.com/klauspost/compress v1.20.3 // indirect
	github.com/pierrec/lz4/v4 v4.1.33 // indirect
	github.com/tidwall/gjson v1.20.4 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.3.0 // indirect
)

require (
	github.com/dave/jennifer v1.7.1 // indirect
	github.com/stretchr/testify v1.12.1
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)
