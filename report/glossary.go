package report

// VerdictsHelp is "limitscope help verdicts": each verdict, the evidence it
// is decided on and what to do. The thresholds are the classifier's
// (diagnose/thresholds.go).
const VerdictsHelp = `Every target gets one verdict per judging window; the whole-series verdict is
the most severe one present (degraded-downstream > oscillating >
pipeline-bound > healthy; oscillating over a standing queue must recur). A
window is 15 sample intervals, 1 to 5 minutes (but at least 12 intervals),
unless --window says otherwise; episodes start and end where the series
changed (the limit, and the min RTT or, without one, the RTT), not at window
edges.

healthy (ok)
  In-flight runs near the limit and the limit is stable, or settling after a
  step (a capacity step down with no rise in errors that settles is a healthy
  limiter following its downstream). Evidence: the limit's median and 10–90%
  band, the utilisation. Nothing to do.

pipeline-bound (info)
  The limit turns away no material share of demand: the rejected share
  (rejected / (rejected + completions), completions by Little's law) is under
  5% with in-flight below 90% of the limit; or in-flight is under a fifth of
  the limit, whatever was rejected (such a limit binds only in a batch's
  bursts); with rejections not measured, in-flight under 80% of the limit
  and within one request (or 5%, at most a quarter of the limit) of it in
  under a fifth of the samples; or a worker pool holds in-flight flat at one
  whole number below the limit with nothing rejected. Rejections in an interval that starts and
  ends with in-flight under half the limit (or the limit unmeasured: Envoy
  pinning concurrency while it re-measures its min RTT) came from something
  brief inside it and do not count. Never while the downstream itself
  refuses 5% or more (losses). Evidence: in-flight median, limit median,
  utilisation.
  The pipeline, not the downstream, is the constraint: look upstream
  (producers, consumers, worker pools, batching).

degraded-downstream (critical)
  The downstream can take less than before, and completes less: every
  RTT-based judgement needs the completion rate (in-flight / RTT, Little's
  law) at 80% or less of its best, since a limiter filling its own queue
  completes as much at a higher RTT, and only while in-flight fills half the
  limit, over the window and its last third (a batch draining into an idle
  gap completes nothing because nothing is sent) — or a fifth of it where
  the min RTT doubled and the RTT rose 1.5× with completions at 40% or less
  (a slower downstream shedding the rest as fast failures holds fewer than
  the limit lets in), or at any share of it where in-flight held where it
  stood at the RTT's baseline (not emptied over the window's last third)
  while the RTT doubled and completions fell to 40% or less (the same
  requests in flight at twice the RTT: a pipeline's steady few, a queueing
  limiter's permits); an interval with losses
  and no RTT completed nothing. Stalled: a whole window with no RTT while
  in-flight holds requests, in a trace that had one (the window ten of its
  RTTs or more): nothing sent succeeded, all the series show without the
  loss column. Slower: the min RTT (or the RTT) at 1.5× its
  earlier level while the limit is pinned at half its earlier level or less,
  fell to half its best (where it swings widely there, the RTT doubled: the
  bottom of its own swing is no slower downstream; a min RTT up less than
  twofold while the RTT held its level at twice it or more is the estimate
  moving within the RTT's spread; an RTT rise alone under a limit above its
  level at the baseline may be its own queue), or holds steady with the
  RTT rising too while completions fall to half or less; or, wherever a
  limit that did not grow sits (not past 1.1× its level in the window's
  first third, nor by more than one step of an integer limit; not past 1.1×
  its level at the baseline, nor past 1.1× the highest level it held with
  the RTT near the baseline's), the min RTT or the RTT up 1.5× while
  completions fall to 40% or less (a limiter tolerating twice the latency; a
  min-RTT estimate never re-probed), even with the limit above capacity
  (losses at their calm level): a limit that held did not deepen its own
  queue; where the limit grew (and was not above capacity), completions at a
  third with the RTT doubled — a limit swinging widely is left to
  oscillating (its own queue may have raised the RTT) unless its spread is
  one fall, it swings at half its best level or less, or it swings around
  the level it held (within 1.1× and one jitter) while the min RTT doubled
  (a controller updating faster than its feedback arrives swings once its
  downstream slows) — not where only the RTT stands in for a min RTT; or the
  limit fallen to half, steady, in-flight against it, completions at 40% or
  less and the RTT up only 1.25× (a limiter that sat above its downstream
  with a queue sees less of the latency rise). Without a min-RTT series,
  where the RTT includes the limiter's own queue, the RTT's rise needs
  completions at 40% or less, never while losses at the calm level show the
  limit above capacity, and must still stand in the window's last third (a
  limit that collapsed from above its downstream drains its own queue: a
  tooth, not a slower downstream). A min-RTT series that moves at half or
  more of the first window's samples, by under 1% each time, is an average
  of the RTT (go-concurrency-limits' Gradient2 exports its long-window
  average, which climbs for 10–20 minutes whatever the downstream does): it
  is read as no min-RTT series, the RTT standing in for it. Fell: inside one
  window the limit falls to half or less while the RTT rises 1.5× (an
  incident starting inside a short recording), or while in-flight stays
  pressed against it and losses make 2% of completions (capacity lost with
  errors, in the first minutes of a recording); never right after a window
  that swung (a tooth of the swing). Smaller: the limit at half its earlier
  level or less while losses (dropped) reach 1% of completions and twice
  their calm level or 5 points of completions above it (a downstream that
  already shed a steady share need not double it), or it is pinned with
  losses, or it is still falling there, turning away 5% of demand at half
  its best completions or less, within three windows of one where it
  began to fall with losses up (a loss-based limiter's losses clear as it
  comes down) — not where the losses are a
  trickle (under 5%) while the RTT falls by a third with the limit: the
  limiter's own queue timing out and draining (a mis-tuned AIMD crashing
  from its saw-tooth's top), nor where in-flight uses under half the limit
  (a limit that little of is used binds nothing). Already degraded: pinned low (at half its
  earlier level or less, or nailed to a value it was never above where the
  limit is continuous or at 1–2: an integer limit on one value may be its
  own equilibrium, Vegas) with losses at 2% of completions; when the trace
  starts mid-incident (no calm level), only at a limit nailed to one value
  (its configured minimum) or at 1–2, or with the RTT persistently 1.5× the
  min RTT while in-flight fills half the limit — a limit flipping 8↔9 with
  losses is as likely probing a healthy downstream's shed point, and a first
  window so judged takes the next one's healthy verdict at the same limit
  and losses where the estimate predated the queue, or where an integer
  limit above 2 merely sat on one value for it; or pinned
  at 1–2 rejecting demand with losses; or, before any calm level, losses at
  60% of completions or more with in-flight filling half the limit or
  more, wherever it sits (a limiter probing a shed point loses about half at
  most). Swamped: the limit turns away 85% of
  demand or more while losses make 1% of completions and twice their calm
  level (or there is none), wherever the limit sits, or 80% or more with the
  latency flat (no standing queue, the min RTT within 1.25× of its baseline)
  — with nothing lost it is an overload the limiter holds back, and a
  trickle of losses while the RTT falls by a third is its own queue
  draining. Held at its minimum
  (losses not measured): the limit fell to half or less and is nailed to one
  value, in-flight pressed against it, where the limit is continuous (it
  took fractional values) or at 1–2. Failing: 5% or more of what the limit
  lets through is lost (and twice the calm level) while in-flight uses under
  half the limit — unless completions hold at 80% of their best with the RTT
  1.25× its baseline: then the losses are the timeouts of a queue a limit
  above capacity let in (a limiter deaf to losses running away), not a
  failing downstream; nor where 90% of the losses or more fell in readings
  in which the limit bound (it turned demand away, or in-flight sat at it),
  short of 60% of completions: the load fell away after them; or half of
  what completes is lost while completions fall to half, wherever the limit
  sits — either at a loss rate of 2% of the best completion rate or more
  (the timeouts of a pipeline idle between batches are a trickle, not a
  failing downstream) (a window losing half with in-flight not pressed
  against the limit, while turning away 80% of demand or while its limit
  grew through the losses, is no calm level, nor one whose limit sank 5%
  with losses of 1%: a limiter backing off from an incident the trace opens
  in). The calm level is a third of the way up the calm windows' loss
  shares, no higher than their third-lowest: a steady few percent spread
  over windows is not "twice" its luckiest window. The evidence names which
  it saw, with its numbers. Page the downstream's owner; raising the limit
  would only queue more.

oscillating (warning)
  The limit swings widely and repeatedly: the middle half of its values
  spans 20% or more of its median and at least the jitter a limit of its
  size shows anyway (√limit, at least 2), or its 10–90% band spans 30% and
  two such jitters; with 4 or more swings of that size in a window (there
  the middle half must span 1.25 jitters: a limit walking a step or two per
  update, read every 15 s, turns at nearly every scrape within about one) or
  2 in each of two windows whose band spans 40% or more, or 2 in each of
  three windows in a row that each spread so (a saw-tooth with one tooth per
  window); or, slower than a window, the window medians move 3 times by 30%
  of their median within the last 8 windows, between levels a factor of two
  apart (a healthy limiter's wandering, such as Vector's ×0.9 back-off
  between 59 and 99, does not halve it); or the window medians alternate, up
  and down 6 times in a row by 10% of their median and a jitter (a limit
  cycle about two windows long). Windows that swing over a standing queue
  (the RTT at twice the min RTT in 90% of their samples) make the verdict
  only when they are half of the judged windows: a limiter over a queue
  re-probes from it (Vegas with a stale no-load RTT); they stay oscillating
  findings, so --fail-on oscillating still trips. A trace's first window
  that swings and is followed by a calm healthy one is the limiter leaving
  its initial limit (warm-up), not oscillation. Evidence: swings, band,
  limit median. Lower the smoothing (halve it) or lengthen the sample
  window; try candidates with limitscope tune FILE --sweep
  smoothing=0.05:0.3:0.05.

insufficient-data (none)
  Too little data to judge: fewer than 12 limit samples (and fewer than 8
  where they span 5 minutes or more), or a window with too few samples.
  Shown grey with confidence 0, never as healthy. Record for longer (where
  length is what a recording lacks, the finding says how many more
  readings with a limit; where some carry none, that is a floor), or pass
  a shorter --window.

The published failure-mode signatures, reported as findings beside the
verdict:

standing-queue (warning)
  A fixed or stuck limit above what the downstream takes: the RTT at least
  twice the min RTT in 90% of a window while the limit is flat — a queue the
  limit keeps full. Where the min-RTT estimate of the time already held the
  queue (a static limit above capacity from the first request), a healthy
  episode's flat limit with the RTT at twice the trace's lowest min RTT or
  more, judged when the result is taken. Also a limit that overshot the
  downstream that came back after an incident: twice its calm level or
  more with 1.5× the calm in-flight, completing twice what the incident
  did, queueing and losing requests there (healthy time: the incident ended
  where the overshoot began). The finding names a min RTT measured during
  the incident, where it stands at twice its earlier level.

stale-rtt-min (warning)
  The min RTT is flat while the RTT runs at 2× it or more and the limit
  sinks: the minimum is never re-probed. Use a windowed minimum with forced
  re-probing.

idle-growth (warning)
  The limit sat at its maximum while in-flight was low (under 30%), then
  in-flight jumped 3×: the limit grew while idle. Grow only while in-flight
  is near the limit.

error-acceleration (warning)
  The limit rose while loss events were present in 30% or more of samples
  and rising: fast errors are raising the limit. Treat errors and timeouts
  as loss events and keep a static safety cap.

Severity: critical, warning, info, ok, none — what fails a CI run is chosen
with --fail-on (default: degraded-downstream, oscillating).
See also: limitscope help terms.`

// TermsHelp is "limitscope help terms": every column, statistic and word on
// the screens and in the reports that is not plain English.
const TermsHelp = `The series (trace columns, docs/trace-format.md)
  limit       the concurrency limit the limiter enforces
  in_flight   requests holding a permit (IN-FL on screen)
  rtt_min_ms  the limiter's minimum-RTT estimate, ms (MIN RTT)
  rtt_ms      the round-trip time of the interval, ms (RTT)
  dropped     loss events in the interval: errors, timeouts, 5xx
  rejected    requests the limit turned away in the interval
              (both since the previous row, not running totals: a column
              that reads as one is warned of; --running-totals reads it
              as each row's increase)

Dashboard columns
  TARGET      one limiter (one downstream); names are shown escaped
  LIMIT       the newest limit
  IN-FL       the newest in-flight
  UTIL        utilisation: in-flight / limit, as a bar and a percentage
  REJ         rejected share of demand in the newest interval
  MIN RTT     the newest min-RTT estimate
  RTT         the newest RTT
  VERDICT     the live verdict of the trailing window (limitscope help verdicts)
  sparkline   the limit over the zoomed span, scaled from 0

Statistics (reports, JSON stats and evidence values)
  utilisation        mean of in-flight / limit (capped at 1); in tune and
                     simulate: the useful work done over the work the
                     downstream's capacity could have done
  rejected share     rejected / (rejected + completed) — the share of demand
                     the limit turned away; completions estimated by Little's
                     law: in-flight / RTT per second. Over 5% while in-flight
                     is near the limit: the limit is the binding constraint
  limit_median, limit_p10, limit_p90
                     the limit's median and 10th/90th percentiles in a window
  band               (p90 − p10) / median of the limit: how widely it moves
  swings             direction changes of the limit larger than its jitter
  in_flight_median   median in-flight in a window
  in_flight_p90_after  in-flight's 90th percentile after an idle spell
  rtt_min_median_ms  median min RTT in a window
  rtt_min_baseline_ms  the min RTT's own earlier level
  rtt_min_rise       rtt_min_median_ms / rtt_min_baseline_ms
  rtt_median_ms      median RTT in a window
  queued_share       the share of a window's samples whose RTT is twice the
                     min RTT or more (a standing queue)
  rtt_rise           the RTT's median over the last third of a window over its
                     median over the first third; for an incident read
                     reading by reading (no window's median showed it), its
                     readings' mean RTT over the median RTT of the window it
                     began in (or the window before, the lower)
  readings           such an incident: how many readings in a row showed it
                     (three or more, over a minute or more)
  completions_share  such an incident's completions (in-flight / RTT) over
                     those of the window it was judged against
  rtt_rise_like_load the RTT's median over its median in the deepest earlier
                     window that held as many requests in flight: at as many
                     in flight the limiter's own queue is as deep, so the
                     rise is the downstream's
  loss_share         the share of samples with loss events
  lost_share         lost / (lost + completed): the share of requests lost to
                     errors or timeouts, completions by Little's law
  lost_share_at_fall the lost_share of the window in which a limit still
                     falling at half or less began to fall
  lost_share_max     a healthy episode's largest lost_share of one window,
                     named where it is 2% or more and began inside it
  completions_per_s  completions a second by Little's law (in-flight / RTT):
                     a slower or smaller downstream completes less, a limiter
                     filling its own queue completes as much at a higher RTT
  completions_share_min, slowdown_rtt_rise
                     a healthy episode's window that completed the least of
                     its best (60% or less) while the RTT stood 1.5× its
                     baseline or more, and that rise: a slower downstream or
                     a smaller one the limit holds above, named, not judged
  limit_peak, limit_calm, in_flight_calm
                     a standing-queue finding after an incident: the highest
                     limit the limiter ran to once the downstream came back,
                     the highest limit it held calm before (where no window
                     counted as calm, the highest it held outside an
                     incident), and the in-flight it held calm (its most,
                     with the RTT at its baseline):
                     twice the calm limit and 1.5× the calm in-flight or
                     more, completing twice what the incident did, is an
                     overshoot queued at the downstream, not the incident
  lost               requests lost over a finding's readings
  level_before, level_since
                     a healthy episode's step down: the level the limit held
                     for two windows or more, and the level at three
                     quarters of it or less it held since for two or more: a
                     downstream that takes fewer at once, or a limiter
                     settling lower on its own, named, not judged
  windows            how many windows showed the finding
  confidence         the share of judged windows that showed the verdict, 0–1
  judged_windows     windows with enough samples to judge
  window_s, interval_s  the judging window and the median sample interval
                     (between readings where rows repeat them)
  repeated_rows      rows whose limit, in-flight, min RTT and RTT repeat the
                     row before them to the digit, judged as that one reading
                     (their counts added to it): the trace was read more often
                     than its source changed (a 15 s scrape exported every
                     second)
  cannot reach       a verdict the data cannot fully support, and why: a
                     series it lacks (no dropped: no error-acceleration),
                     readings too far apart to see a swing, or rows that
                     repeat each reading too far apart to be folded (see
                     repeated_rows)
  readings Xs apart  (status lines, "every Xs" in the header) the step a
                     fleet is read from Prometheus at: the limit series'
                     scrape interval, unless --interval sets it
  non_finite         statistics left out because they overflowed
  warnings           (reports, JSON) what reading the input warned of: a
                     truncated last line, a count column that reads as a
                     running total; a verdict beside one may rest on it
  gap                a window's length or more without a sample: findings
                     end before it and windows start afresh after it; an
                     hour or more begins a new recording, judged alone
  pinned             the limit held at its floor (p90 within 10% or two units
                     of p10, p10 within 10% or two units of the floor)
  floor              the lowest limit seen (or the configured minimum), brief
                     re-probes and re-measurements left out
  jitter             √limit: the swing any limit near it shows anyway

tune and simulate
  open loop          the recorded RTTs replayed as they were: exact, but blind
                     to how another limit would have changed them
  closed loop        the candidate runs against a downstream model fitted to
                     the trace (base latency, capacity by Little's law, demand)
  p99, p99_ms        99th-percentile latency of admitted requests, ms
  overload episodes  one-minute spans whose mean latency exceeded twice the
                     base latency (simulate: or lost over 1% to shedding or
                     timeouts)
  deferred           requests not sent: turned away or expired in the queue
  oscillation index  the limit's mean absolute change between one-second
                     points, as a percentage of its median (0: flat)
  Δ, Δ util          current − baseline; utilisation in percentage points (pt)
  p99/base           a candidate's p99 over the fitted base latency (tune --compare)
  eligible, ✗        a candidate ran without overload episodes and was not
                     oscillating (✗: it was not; ranked last)
  fit error          how far the closed loop's downstream model misses the
                     recorded RTTs (median and 90th percentile)
  smoothing          the weight of the new target:
                     limit = limit·(1−s) + target·s; higher reacts faster
                     and oscillates more
  min_limit, max_limit, cap, rtt_window, gradient_floor, growth_threshold,
  loss_backoff       the gradient limiter's knobs (limitscope tune --help)
  tolerance, queue_size, long_window
                     Gradient2's: how far the RTT may exceed its long-term
                     average, the growth per update, the average's window
  probe_multiplier   Vegas': how often the no-load RTT is re-probed
  backoff, timeout   AIMD's: the cut on a loss, an RTT counted as a loss
  min_concurrency, buffer, percentile, update_interval, min_rtt_interval
                     Envoy's gradient controller (its v3 API names)
  decrease_ratio, ewma_alpha, rtt_deviation_scale
                     Vector's adaptive request concurrency (its setting names)
  algorithm          the limit algorithm replayed: gradient, gradient2, vegas,
                     aimd, envoy, vector (limitscope tune --algorithm)
  published          the benchmark table of the article "Adaptive
                     Concurrency Limits for Geofence Consumers"

Exit codes: limitscope --help.`
