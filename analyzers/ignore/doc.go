// Package ignore defines an Analyzer that reports malformed //gpukvet:
// directives.
//
// # Analyzer ignore
//
// ignore: report malformed //gpukvet:ignore directives
//
// A diagnostic of one gpukvet analyzer can be silenced on one line with a
// directive on that line or on the line above it:
//
//	//gpukvet:ignore races every thread writes the same value here
//	out[0] = 1
//
// The directive names one analyzer, or several separated by commas
// (races,divergence), followed by a reason: a few words saying why the
// report is wrong at that place, for the next reader. Text after a nested
// "//" is a comment on the directive and not part of the reason.
//
// This analyzer reports a directive that has no reason, one that names an
// analyzer gpukvet does not have, and any other //gpukvet: directive. A
// malformed directive silences nothing.
package ignore
