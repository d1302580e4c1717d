package scrape

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net/http"
	"os"
	"strings"
)

// Auth is how a source authenticates to and verifies the servers it reads:
// /metrics endpoints and Prometheus servers alike (fleet Prometheus servers
// are usually behind auth).
type Auth struct {
	// CAFile verifies TLS servers; InsecureSkipVerify skips verification
	// (only by an explicit flag).
	CAFile             string
	InsecureSkipVerify bool
	// BearerTokenFile and BasicAuthUser/BasicAuthPasswordFile authenticate;
	// the secrets are read once and never appear in errors or recordings.
	BearerTokenFile       string
	BasicAuthUser         string
	BasicAuthPasswordFile string
}

// credentials are the secrets read from Auth's files.
type credentials struct {
	token, user, password string
}

// load reads the credential and CA files.
func (a Auth) load() (credentials, *tls.Config, error) {
	var c credentials
	tlsCfg := &tls.Config{InsecureSkipVerify: a.InsecureSkipVerify} //nolint:gosec // only by an explicit flag
	if a.CAFile != "" {
		pem, err := os.ReadFile(a.CAFile)
		if err != nil {
			return c, nil, &ConfigError{Field: "Auth.CAFile", Err: err}
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return c, nil, &ConfigError{Field: "Auth.CAFile", Value: a.CAFile, Err: errors.New("no PEM certificate in it")}
		}
		tlsCfg.RootCAs = pool
	}
	if a.BearerTokenFile != "" {
		b, err := os.ReadFile(a.BearerTokenFile)
		if err != nil {
			return c, nil, &ConfigError{Field: "Auth.BearerTokenFile", Err: err}
		}
		c.token = strings.TrimSpace(string(b))
	}
	if a.BasicAuthPasswordFile != "" {
		b, err := os.ReadFile(a.BasicAuthPasswordFile)
		if err != nil {
			return c, nil, &ConfigError{Field: "Auth.BasicAuthPasswordFile", Err: err}
		}
		c.password = strings.TrimRight(string(b), "\r\n")
	}
	c.user = a.BasicAuthUser
	return c, tlsCfg, nil
}

// apply sets the request's Authorization header, reporting whether it did.
func (c credentials) apply(req *http.Request) bool {
	switch {
	case c.token != "":
		req.Header.Set("Authorization", "Bearer "+c.token)
	case c.user != "":
		req.SetBasicAuth(c.user, c.password)
	default:
		return false
	}
	return true
}

// authTransport adds the credentials to every request of a client it does
// not own (the Prometheus API client).
type authTransport struct {
	base  http.RoundTripper
	creds credentials
}

func (t authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	t.creds.apply(r)
	return t.base.RoundTrip(r)
}
