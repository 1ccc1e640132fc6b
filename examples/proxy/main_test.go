package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"nothing", nil, "-listen and -upstream are required"},
		{"no upstream", []string{"-listen", "127.0.0.1:9192"}, "-listen and -upstream are required"},
		{"port 0", []string{"-listen", "127.0.0.1:0", "-upstream", "127.0.0.1:9092"}, "want HOST:PORT with a fixed port"},
		{"no port", []string{"-listen", "127.0.0.1", "-upstream", "127.0.0.1:9092"}, "want HOST:PORT with a fixed port"},
		{"bad upstream", []string{"-listen", "127.0.0.1:9192", "-upstream", "127.0.0.1:9092,broker2"}, `"broker2" is not HOST:PORT`},
		{"unknown api", []string{"-listen", "127.0.0.1:9192", "-upstream", "127.0.0.1:9092", "-allow-apis", "Produce,Teleport"}, `"Teleport" is neither an api name`},
		{"unknown key", []string{"-listen", "127.0.0.1:9192", "-upstream", "127.0.0.1:9092", "-allow-apis", "9999"}, `"9999" is neither an api name`},
		{"an argument", []string{"-listen", "127.0.0.1:9192", "-upstream", "127.0.0.1:9092", "extra"}, `unexpected argument "extra"`},
		{"cert without key", []string{"-listen", "127.0.0.1:9192", "-upstream", "127.0.0.1:9092", "-tls-cert", "c.pem"}, "-tls-cert and -tls-key go together"},
		{"bad virtual cluster", []string{"-listen", "127.0.0.1:9192", "-upstream", "127.0.0.1:9092", "-virtual-cluster", "a=a."}, "want NAME=PREFIX:PRINCIPAL"},
		{"virtual cluster without SASL", []string{"-listen", "127.0.0.1:9192", "-upstream", "127.0.0.1:9092", "-virtual-cluster", "a=a.:alice"}, "-virtual-cluster needs authenticated principals"},
		{"prefix and virtual cluster", []string{"-listen", "127.0.0.1:9192", "-upstream", "127.0.0.1:9092", "-topic-prefix", "t.", "-virtual-cluster", "a=a.:alice"}, "-topic-prefix and -virtual-cluster"},
		{"upstream SASL without user", []string{"-listen", "127.0.0.1:9192", "-upstream", "127.0.0.1:9092", "-upstream-sasl", "PLAIN"}, "-upstream-sasl needs -upstream-user"},
		{"missing users file", []string{"-listen", "127.0.0.1:9192", "-upstream", "127.0.0.1:9092", "-users-file", "/nonexistent/users"}, "-users-file: open /nonexistent/users"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			assert.Equal(t, 2, run(tt.args, &stdout, &stderr))
			assert.Contains(t, stderr.String(), tt.want)
			assert.Empty(t, stdout.String())
		})
	}
}

func TestAPIKeys(t *testing.T) {
	keys, err := apiKeys("Produce, fetch,ApiVersions,19,DescribeCluster")
	assert.NoError(t, err)
	assert.Equal(t, []int16{0, 1, 18, 19, 60}, keys)
}

// A port that is taken is an error on the command's exit status, with the
// address in the message.
func TestListenTaken(t *testing.T) {
	port := freePorts(t, 1)
	ln := listen(t, port)
	defer ln.Close()
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 1, run([]string{"-listen", ln.Addr().String(), "-upstream", "127.0.0.1:1"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), ln.Addr().String())
	assert.Contains(t, stderr.String(), "address already in use")
}
