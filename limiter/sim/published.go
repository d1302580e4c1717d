package sim

// PublishedScenario is the builtin scenario that reproduces the published
// benchmark's workload.
const PublishedScenario = "capacity-shift"

// PublishedRow is one limiter's row of the published benchmark table, as
// printed there.
type PublishedRow struct {
	Utilisation, P99, OverloadEpisodes, Deferred string
}

// Published is the benchmark table of the article "Adaptive Concurrency
// Limits for Geofence Consumers" (a real-time geofencing guide, section
// "Benchmark and verification"): five limiters measured against a downstream
// whose capacity changes 3× over an hour — a deploy that doubles it, then a
// noisy neighbour that cuts it to 60 % of the original — which the builtin
// capacity-shift scenario reproduces. Keyed by the shoot-out's limiter names;
// the article's labels are "Static, sized for the low case", "Static, sized
// for the high case", "AIMD on errors", "Gradient" and "Gradient + static
// safety cap". Its "P99 trigger latency" and "Triggers deferred" are this
// tool's p99 and deferred requests. Only a run of PublishedScenario is
// comparable with it.
var Published = map[string]PublishedRow{
	"static-low":   {"34%", "31 ms", "0", "2.9M"},
	"static-high":  {"96%", "890 ms", "41", "210k"},
	"aimd":         {"78%", "240 ms", "9", "340k"},
	"gradient":     {"92%", "34 ms", "0", "190k"},
	"gradient-cap": {"92%", "34 ms", "0", "190k"},
}
