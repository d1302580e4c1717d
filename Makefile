# limitscope — see README.md. `make run` is the embedded default, `make test`
# runs every test (and installs what the tests need when missing).
GO      ?= go
BIN     := bin/limitscope
PKGS    := ./...
FUZZTIME ?= 20s
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: build run test test-deps bench fuzz lint calibrate clean

build:
	$(GO) build -o $(BIN) .

run: build
	./$(BIN) demo

# test-deps installs the system packages the tests start for real.
test-deps:
	@./scripts/test-deps.sh

# LIMITSCOPE_REQUIRE_TOOLS: tests that start tmux or prometheus fail here
# when the tool is missing (a plain go test skips them instead)
test: test-deps
	$(GO) vet $(PKGS)
	LIMITSCOPE_REQUIRE_TOOLS=1 $(GO) test -race -count=1 -timeout 20m $(PKGS)
	# single-threaded simulation tests (build tag !race: the classifier's
	# calibration set, the hour-long shoot-out, the what-if validation) run
	# without the race detector, ten times faster
	LIMITSCOPE_REQUIRE_TOOLS=1 $(GO) test -count=1 -timeout 20m ./diagnose/ ./limiter/sim/ ./tune/ ./rules/

# calibrate reports the calibration halves the classifier's thresholds are
# tuned on (the held-out halves are asserted by make test) and the validation
# draws (TestValidationSeedCalibration, TestFreeLatencyValidation); set
# LIMITSCOPE_SUITE_DUMP=DIR to also write every trace as a CSV file there
calibrate:
	LIMITSCOPE_CALIBRATE=1 $(GO) test -count=1 -timeout 60m -v -run 'Calibration|Validation' ./diagnose/ | grep -v '^=== RUN'

bench:
	$(GO) test -p 1 -run '^$$' -bench . -benchmem -timeout 30m $(PKGS)

# -fuzzminimizetime bounds the minimisation of each new input (without it a
# slow-to-minimise input can hold a worker for most of the run).
FUZZ := -run '^$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s
fuzz:
	$(GO) test ./trace $(FUZZ) -fuzz '^FuzzReadCSV$$'
	$(GO) test ./trace $(FUZZ) -fuzz '^FuzzReadJSONL$$'
	$(GO) test ./limiter $(FUZZ) -fuzz '^FuzzGradientStaysFiniteAndBounded$$'
	$(GO) test ./limiter/sim $(FUZZ) -fuzz '^FuzzParseScenario$$'
	$(GO) test ./scrape $(FUZZ) -fuzz '^FuzzMapExposition$$'
	$(GO) test ./scrape $(FUZZ) -fuzz '^FuzzScrapeIntervals$$'
	$(GO) test ./report $(FUZZ) -fuzz '^FuzzDiagnose$$'
	$(GO) test ./report $(FUZZ) -fuzz '^FuzzReportWriters$$'
	$(GO) test ./safetext $(FUZZ) -fuzz '^FuzzEveryOutputKind$$'

lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo 'gofmt: files above need formatting'; exit 1; }
	$(GO) vet $(PKGS)
	$(GO) run $(STATICCHECK) $(PKGS)

clean:
	rm -rf bin
