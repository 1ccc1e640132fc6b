package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/kafkagen/kafkagen/proxy/gateway"
	"github.com/kafkagen/kafkagen/wire"
)

// identityFlags are the flags of identity and virtual clusters, for the
// simple case; a configuration file fills the same gateway.Config.
type identityFlags struct {
	tlsCert, tlsKey        string
	usersFile              string
	mechanisms             string
	acceptRepeatedNonce    bool
	maxReauth, authTimeout time.Duration
	oauthKeys, oauthAud    string
	oauthIssuer            string
	clusters               virtualClusterFlags
	upstreamSASL           string
	upstreamUser           string
	upstreamPasswordFile   string
	upstreamTLS            bool
	upstreamCA             string
	enabled                bool // any of them given
}

func (f *identityFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.tlsCert, "tls-cert", "", "TLS toward clients: certificate PEM file (with -tls-key)")
	fs.StringVar(&f.tlsKey, "tls-key", "", "TLS toward clients: private key PEM file")
	fs.StringVar(&f.usersFile, "users-file", "", "SASL users at the proxy: a file of USER:PASSWORD lines (kept as SCRAM keys, not as passwords)")
	fs.StringVar(&f.mechanisms, "sasl-mechanisms", "", "SASL mechanisms served (default PLAIN,SCRAM-SHA-256,SCRAM-SHA-512 with -users-file, OAUTHBEARER with -oauth-keys)")
	fs.BoolVar(&f.acceptRepeatedNonce, "accept-repeated-scram-nonce", false, "accept librdkafka<2.6.1's SCRAM final message (its nonce repeated), which Kafka 4 refuses")
	fs.DurationVar(&f.maxReauth, "max-reauth", 0, "SASL session lifetime (connections.max.reauth.ms, KIP-368); 0: sessions never expire")
	fs.DurationVar(&f.authTimeout, "auth-timeout", 0, "bound on a client's TLS handshake and SASL authentication (default 10s)")
	fs.StringVar(&f.oauthKeys, "oauth-keys", "", "OAUTHBEARER: PEM file of the public keys JWTs are signed with")
	fs.StringVar(&f.oauthAud, "oauth-audience", "", "OAUTHBEARER: the audience tokens must name")
	fs.StringVar(&f.oauthIssuer, "oauth-issuer", "", "OAUTHBEARER: the issuer tokens must name (optional)")
	fs.Var(&f.clusters, "virtual-cluster", "NAME=PREFIX:PRINCIPAL[,PRINCIPAL...]: those principals see the topics, groups and transactional ids under PREFIX (repeatable)")
	fs.StringVar(&f.upstreamSASL, "upstream-sasl", "", "the proxy's SASL mechanism toward brokers: PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512")
	fs.StringVar(&f.upstreamUser, "upstream-user", "", "the proxy's user toward brokers")
	fs.StringVar(&f.upstreamPasswordFile, "upstream-password-file", "", "file holding the proxy's password toward brokers")
	fs.BoolVar(&f.upstreamTLS, "upstream-tls", false, "TLS toward brokers (system roots, or -upstream-ca)")
	fs.StringVar(&f.upstreamCA, "upstream-ca", "", "TLS toward brokers: PEM file of the CA certificates to trust")
}

// virtualClusterFlags collects -virtual-cluster values.
type virtualClusterFlags []gateway.VirtualCluster

func (v *virtualClusterFlags) String() string { return fmt.Sprint(len(*v), " virtual clusters") }

func (v *virtualClusterFlags) Set(s string) error {
	name, rest, ok1 := strings.Cut(s, "=")
	prefix, principals, ok2 := strings.Cut(rest, ":")
	if !ok1 || !ok2 || name == "" || prefix == "" || principals == "" {
		return fmt.Errorf("%q: want NAME=PREFIX:PRINCIPAL[,PRINCIPAL...]", s)
	}
	*v = append(*v, gateway.VirtualCluster{Name: name, TopicPrefix: prefix, Principals: strings.Split(principals, ",")})
	return nil
}

// gateway builds the gateway configuration of the flags.
func (f *identityFlags) gateway() (gateway.Config, error) {
	var g gateway.Config
	var err error
	if (f.tlsCert == "") != (f.tlsKey == "") {
		return g, errors.New("-tls-cert and -tls-key go together")
	}
	if f.tlsCert != "" {
		if g.TLS, err = gateway.ServerTLS(f.tlsCert, f.tlsKey); err != nil {
			return g, err
		}
	}
	if f.usersFile != "" || f.oauthKeys != "" {
		g.SASL = &gateway.SASL{AcceptRepeatedScramNonce: f.acceptRepeatedNonce, MaxReauth: f.maxReauth}
		if f.mechanisms != "" {
			g.SASL.Mechanisms = strings.Split(f.mechanisms, ",")
		}
		if f.usersFile != "" {
			if g.SASL.Users, err = readUsers(f.usersFile); err != nil {
				return g, err
			}
		}
		if f.oauthKeys != "" {
			v, err := loadJWTValidator(f.oauthKeys, f.oauthAud, f.oauthIssuer)
			if err != nil {
				return g, fmt.Errorf("-oauth-keys: %w", err)
			}
			g.SASL.OAuthBearer = v.validate
		}
	}
	if len(f.clusters) > 0 && g.SASL == nil {
		return g, errors.New("-virtual-cluster needs authenticated principals: give -users-file or -oauth-keys")
	}
	g.VirtualClusters, g.AuthTimeout = f.clusters, f.authTimeout
	if f.upstreamTLS || f.upstreamCA != "" {
		if g.UpstreamTLS, err = gateway.ClientTLS(f.upstreamCA); err != nil {
			return g, err
		}
	}
	if f.upstreamSASL != "" {
		if g.UpstreamSASL, err = f.upstreamMechanism(); err != nil {
			return g, err
		}
	}
	return g, nil
}

// upstreamMechanism is the proxy's own login toward the brokers.
func (f *identityFlags) upstreamMechanism() (wire.SASLMechanism, error) {
	if f.upstreamUser == "" || f.upstreamPasswordFile == "" {
		return nil, errors.New("-upstream-sasl needs -upstream-user and -upstream-password-file")
	}
	data, err := os.ReadFile(f.upstreamPasswordFile)
	if err != nil {
		return nil, fmt.Errorf("-upstream-password-file: %w", err)
	}
	password := strings.TrimRight(string(data), "\r\n")
	switch f.upstreamSASL {
	case wire.SASLPlain:
		return wire.PlainAuth(f.upstreamUser, password), nil
	case wire.SASLScramSHA256:
		return wire.ScramSHA256Auth(f.upstreamUser, password)
	case wire.SASLScramSHA512:
		return wire.ScramSHA512Auth(f.upstreamUser, password)
	}
	return nil, fmt.Errorf("-upstream-sasl %q: want PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512", f.upstreamSASL)
}

// readUsers reads USER:PASSWORD lines; blank lines and # comments are
// skipped.
func readUsers(file string) (map[string]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("-users-file: %w", err)
	}
	defer f.Close()
	users := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		user, password, ok := strings.Cut(line, ":")
		if !ok || user == "" || password == "" {
			return nil, fmt.Errorf("-users-file %s line %d: want USER:PASSWORD", file, n)
		}
		if _, dup := users[user]; dup {
			return nil, fmt.Errorf("-users-file %s line %d: user %q again", file, n, user)
		}
		users[user] = password
	}
	return users, sc.Err()
}
