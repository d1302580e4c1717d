package limiterhttp_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/limitscope/limitscope/limiter"
	"github.com/limitscope/limitscope/limiter/limiterhttp"
)

func TestMiddlewareAnswers503WithRetryAfter(t *testing.T) {
	g := limiter.NewGate(limiter.GateConfig{Limiter: &limiter.Fixed{N: 1}})
	release := make(chan struct{})
	entered := make(chan struct{})
	h := limiterhttp.Middleware(g, 2*time.Second, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			close(entered)
			<-release
		}
		if r.URL.Path == "/fail" {
			w.WriteHeader(500)
		}
	}))
	go h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/slow", nil))
	<-entered
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Code != 503 || rec.Header().Get("Retry-After") != "2" {
		t.Fatalf("over the limit: %d Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
	close(release)
	for g.Stats().InFlight != 0 {
		time.Sleep(time.Millisecond)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/fail", nil))
	if st := g.Stats(); st.Dropped != 1 || st.Success != 1 || st.Rejected != 1 {
		t.Fatalf("outcomes %+v", st)
	}
}

// A handler behind a gate of one slot: while one request holds the slot, the
// next is answered 503 with Retry-After; a 5xx answer is a loss event.
func ExampleMiddleware() {
	gate := limiter.NewGate(limiter.GateConfig{Downstream: "payments", Limiter: &limiter.Fixed{N: 1}})
	hold, held := make(chan struct{}), make(chan struct{})
	srv := httptest.NewServer(limiterhttp.Middleware(gate, 1500*time.Millisecond, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/hold":
			close(held)
			<-hold
		case "/fail":
			http.Error(w, "downstream broke", http.StatusBadGateway)
			return
		}
		fmt.Fprintln(w, "ok")
	})))
	defer srv.Close()

	done := make(chan struct{})
	go func() {
		defer close(done)
		if resp, err := http.Get(srv.URL + "/hold"); err == nil {
			resp.Body.Close()
		}
	}()
	<-held
	resp, err := http.Get(srv.URL + "/")
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Printf("while full: %d, Retry-After %s, %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	close(hold)
	<-done
	if resp, err := http.Get(srv.URL + "/fail"); err == nil {
		resp.Body.Close()
	}
	s := gate.Stats()
	fmt.Printf("success %d, dropped %d, rejected %d\n", s.Success, s.Dropped, s.Rejected)
	// Output:
	// while full: 503, Retry-After 2, concurrency limit reached, retry later
	// success 1, dropped 1, rejected 1
}
