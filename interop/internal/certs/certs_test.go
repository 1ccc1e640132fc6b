package certs

import (
	"crypto/tls"
	"net"
	"testing"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// handshake runs a TLS handshake on 127.0.0.1 between a server with
// server's configuration and a client trusting the CA of caFile; it
// returns the client's error.
func handshake(t *testing.T, server *tls.Config, caFile string) error {
	t.Helper()
	ln, err := tls.Listen("tcp", "127.0.0.1:0", server)
	require.NoError(t, err)
	defer ln.Close()
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		conn.(*tls.Conn).Handshake()
	}()
	client, err := scenario.Security{Protocol: scenario.SSL, CAFile: caFile}.TLSConfig()
	require.NoError(t, err)
	conn, err := tls.Dial("tcp", ln.Addr().String(), client)
	if err != nil {
		return err
	}
	return conn.Close()
}

func TestWriteMakesACertificateTheCATrusts(t *testing.T) {
	files, err := Write(t.TempDir())
	require.NoError(t, err)
	server, err := files.ServerConfig()
	require.NoError(t, err)
	leaf := server.Certificates[0].Leaf
	require.NotNil(t, leaf)
	assert.True(t, leaf.IPAddresses[0].Equal(net.IPv4(127, 0, 0, 1)))
	assert.Equal(t, []string{"localhost"}, leaf.DNSNames)
	require.NoError(t, handshake(t, server, files.CA), "a client trusting the CA connects to 127.0.0.1")

	other, err := Write(t.TempDir())
	require.NoError(t, err)
	err = handshake(t, server, other.CA)
	require.Error(t, err, "a client trusting another run's CA is refused")
	assert.Contains(t, err.Error(), "certificate signed by unknown authority")
}

func TestServerConfigNamesAMissingKey(t *testing.T) {
	files, err := Write(t.TempDir())
	require.NoError(t, err)
	files.Key = files.Key + ".missing"
	_, err = files.ServerConfig()
	assert.ErrorContains(t, err, "broker certificate: open "+files.Key)
}
