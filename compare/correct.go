package compare

// Correction names the multiple-comparison correction Compare applies to
// the p-values of one comparison: the Benjamini-Hochberg step-up procedure
// (stats.AdjustBH), which controls the false discovery rate (the expected
// share of flagged changes that are not real) at Alpha. Without it, a
// comparison of 300 cells at Alpha 0.05 flags about 15 unchanged cells by
// chance.
const Correction = "benjamini-hochberg"
