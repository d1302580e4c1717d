package trace

import "time"

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
		vals: [6]float32{float32(s.Limit), float32(s.InFlight), float32(s.RTTMinMs), float32(s.RTTMs), float32(s.Dropped), float32(s.Rejected)}}
}

// Unpack returns the Sample p packs.
func (pk *Packer) Unpack(p Packed) Sample { return unpackValues(p, pk.names[p.target]) }

func unpackValues(p Packed, target string) Sample {
	return Sample{Time: time.Unix(0, p.ns).UTC(), Target: target, Fields: p.fields,
		Limit: float64(p.vals[0]), InFlight: float64(p.vals[1]), RTTMinMs: float64(p.vals[2]),
		RTTMs: float64(p.vals[3]), Dropped: float64(p.vals[4]), Rejected: float64(p.vals[5])}
}
