package trace

import (
	"math"
	"time"
)

// Packed is a Sample in 40 bytes, for holding hours of many targets in
// memory (ring buffers, replay): the time as Unix nanoseconds, the values as
// float32 (7 significant digits, more than a dashboard shows), the target as
// an index into a Packer's names.
type Packed struct {
	ns     int64
	vals   [6]float32
	target uint32
	fields Field
}

// UnixNano returns the sample's time as Unix nanoseconds.
func (p *Packed) UnixNano() int64 { return p.ns }

// Time returns the sample's time.
func (p *Packed) Time() time.Time { return time.Unix(0, p.ns).UTC() }

// Packer interns target names for Packed samples. It is not safe for
// concurrent use.
type Packer struct {
	names []string
	ids   map[string]uint32
}

// Pack packs s.
func (pk *Packer) Pack(s Sample) Packed {
	if pk.ids == nil {
		pk.ids = map[string]uint32{}
	}
	id, ok := pk.ids[s.Target]
	if !ok {
		id = uint32(len(pk.names))
		pk.names = append(pk.names, s.Target)
		pk.ids[s.Target] = id
	}
	return packValues(s, id)
}

func packValues(s Sample, id uint32) Packed {
	return Packed{ns: s.Time.UnixNano(), target: id, fields: s.Fields,
		vals: [6]float32{f32(s.Limit), f32(s.InFlight), f32(s.RTTMinMs), f32(s.RTTMs), f32(s.Dropped), f32(s.Rejected)}}
}

// f32 is v as a float32, saturated at float32's largest magnitude: a value
// beyond its range (1e308 is a valid trace value) stays finite rather than
// becoming ±Inf, whose ratios (in-flight / limit) are NaN downstream.
func f32(v float64) float32 {
	switch {
	case v > math.MaxFloat32:
		return math.MaxFloat32
	case v < -math.MaxFloat32:
		return -math.MaxFloat32
	}
	return float32(v)
}

// Unpack returns the Sample p packs.
func (pk *Packer) Unpack(p Packed) Sample { return unpackValues(p, pk.names[p.target]) }

func unpackValues(p Packed, target string) Sample {
	return Sample{Time: time.Unix(0, p.ns).UTC(), Target: target, Fields: p.fields,
		Limit: float64(p.vals[0]), InFlight: float64(p.vals[1]), RTTMinMs: float64(p.vals[2]),
		RTTMs: float64(p.vals[3]), Dropped: float64(p.vals[4]), Rejected: float64(p.vals[5])}
}
