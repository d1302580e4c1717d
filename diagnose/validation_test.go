//go:build !race

package diagnose

import (
	"os"
	"testing"
)

// validationSeed draws a third set from the same generators, apart from
// both halves of the split: a change tuned on the calibration half is
// checked here before the held-out half is looked at (once), and a miss
// here may be studied, which a held-out miss may not. Reported by make
// calibrate, by truth, for the simulator's families and the real
// libraries. Thresholds are set on the calibration half, never here.
const validationSeed = calibrationSeed + 9

// TestValidationSeedCalibration reports the validation draw's confusion
// matrices (make calibrate).
func TestValidationSeedCalibration(t *testing.T) {
	if os.Getenv("LIMITSCOPE_CALIBRATE") == "" {
		t.Skip("reports the validation draw (neither calibration nor held-out); run with LIMITSCOPE_CALIBRATE=1 (make calibrate)")
	}
	sim := generateSuite(validationSeed, 40)
	dumpSuite(t, labelledOf(sim))
	for fam, recall := range judgeSuite(t, sim, true, familyNames()) {
		t.Logf("simulator %s: worst per-class recall on the validation draw by truth: %.1f%%", fam, 100*worstRecall(recall))
	}
	real := generateReal(t, validationSeed, 30, realFamilies)
	for fam, recall := range judgeSuite(t, real, true, realFamilyNames()) {
		t.Logf("real %s: worst per-class recall on the validation draw by truth: %.1f%%", fam, 100*worstRecall(recall))
	}
}
