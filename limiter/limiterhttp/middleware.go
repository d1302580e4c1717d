// Package limiterhttp puts a limiter.Gate in front of a net/http handler:
// requests over the limit are answered 503 with Retry-After, and a handler
// answering 5xx is a loss event for the limiter.
package limiterhttp

import (
	"net/http"
	"strconv"
	"time"

	"github.com/limitscope/limitscope/limiter"
)

// Middleware admits each request through gate. A request over the limit (and
// past the gate's queue) is answered 503 Service Unavailable with a
// Retry-After header of retryAfter rounded up to whole seconds (at least 1),
// so well-behaved clients back off instead of retrying at once. A handler
// answering 5xx counts as a loss event.
func Middleware(gate *limiter.Gate, retryAfter time.Duration, next http.Handler) http.Handler {
	secs := int((retryAfter + time.Second - 1) / time.Second)
	if secs < 1 {
		secs = 1
	}
	ra := strconv.Itoa(secs)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := gate.Acquire(r.Context())
		if err != nil {
			w.Header().Set("Retry-After", ra)
			http.Error(w, "concurrency limit reached, retry later", http.StatusServiceUnavailable)
			return
		}
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		outcome := limiter.Ignore
		defer func() { p.Release(outcome) }()
		next.ServeHTTP(sw, r)
		switch {
		case r.Context().Err() != nil:
			outcome = limiter.Ignore
		case sw.status >= 500:
			outcome = limiter.Dropped
		default:
			outcome = limiter.Success
		}
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (s *statusWriter) WriteHeader(code int) {
	if !s.wrote {
		s.status, s.wrote = code, true
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	s.wrote = true
	return s.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }
