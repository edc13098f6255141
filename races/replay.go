package races

import (
	"fmt"

	"github.com/gpukvet/gpukvet/internal/replay"
	"github.com/gpukvet/gpukvet/internal/twothread"
)

// Every witness the check prints is replayed first (package replay): the
// kernel runs under the witness's launch, for the blocks of its two
// threads, and both accesses must happen, in bounds, on the element, in
// one barrier interval (or in different blocks). A witness that does not
// happen sends the pair back to the solver with what the replay showed
// (every index in bounds, that launch and those threads excluded), up to
// replayRetries times; a pair still without a witness that happens is
// reported as a finding that could not be proven either way, naming the
// value the model does not track.

// replayRetries is the number of times a pair is asked again after its
// witness did not happen.
const replayRetries = 3

// replayFills are the ways to fill in what a witness leaves free, tried
// in order while its replay does not happen: the model's own slice
// lengths with zeros, then longer slices (a length the solver chose only
// just big enough for the named accesses may stop a thread at an earlier
// one), then other parameter values and data.
var replayFills = []twothread.Fill{{}, {Long: true}, {Int: 32, Data: 1, Long: true}, {Int: 1, Data: 1, Long: true}}

// replayFeedback turns the feedback loop on; tests turn it off to count
// the witnesses that would be printed without it.
var replayFeedback = true

// A witnessLog counts what replay did for the witnesses of a check.
type witnessLog struct {
	Replayed int // witnesses that happened when replayed
	Refuted  int // witnesses that did not happen
	Unknown  int // witnesses the replay could not run
	// Printed counts the witnesses printed as races; PrintedBad those
	// among them that did not happen (Bad: their messages), and
	// Unverified those the replay could not run (both only with the
	// feedback loop off). With it on, a race whose witness did not happen
	// is printed as a finding that could not be proven (Unproven), and so
	// is one whose witness the replay could not run (Unreplayable).
	Printed, PrintedBad, Unverified, Unproven, Unreplayable int
	Bad                                                     []string
}

// note counts the witness of reported race f, whose message is msg.
func (l *witnessLog) note(f found, msg string) {
	unknown := f.res.Verdict == replay.Unknown
	switch {
	case !f.unreplayed():
		l.Printed++
	case replayFeedback && unknown:
		l.Unreplayable++
	case replayFeedback:
		l.Unproven++
	case unknown:
		l.Printed++
		l.Unverified++
	default:
		l.Printed++
		l.PrintedBad++
		l.Bad = append(l.Bad, msg)
	}
}

// confirm replays collision c of pair pr and returns the collision to
// report (c, or one the solver found again), with the replay's verdict on
// it and, when no witness happened, why; ok is false when the question
// asked again shows the pair apart.
func (s *search) confirm(pr twothread.Pair, c twothread.Collision) (twothread.Collision, replay.Result, bool) {
	if c.Witness == twothread.NoWitness {
		return c, replay.Result{Verdict: replay.Happens}, true
	}
	res := s.replay(pr, c)
	if res.Observed != nil {
		return s.observed(pr, c, res.Observed), res, true
	}
	if res.Verdict != replay.Refuted || !replayFeedback {
		return c, res, true
	}
	refuted := []twothread.Collision{c}
	first := res
	for range replayRetries {
		again, ok := s.k.CollideAgain(pr, refuted)
		if !ok {
			return again, res, false
		}
		if again.Witness == twothread.NoWitness {
			return c, first, true
		}
		res = s.replay(pr, again)
		if res.Observed != nil {
			return s.observed(pr, again, res.Observed), res, true
		}
		if res.Verdict != replay.Refuted {
			return again, res, true
		}
		refuted = append(refuted, again)
	}
	return c, first, true
}

// orient returns the race of pair pr with collision c and replay result
// res, its earlier access first, as reported at its line.
func (s *search) orient(pr twothread.Pair, c twothread.Collision, res replay.Result) found {
	if pr.A.Pos() > pr.B.Pos() {
		pr.A, pr.B = pr.B, pr.A
		c.Threads[0], c.Threads[1] = c.Threads[1], c.Threads[0]
		c.Elems[0], c.Elems[1] = c.Elems[1], c.Elems[0]
	}
	key, pos := s.keyOf(pr.A, pr.B)
	return found{pair: pr, c: c, res: res, key: key, pos: pos}
}

// settle replays the races found at f's line, the collisions found first,
// then the line's other pairs (pairs) asked again, and returns the race to
// report: the first whose witness happens (or has none to replay), else
// one whose witness did not happen, reworded; ok is false when every pair
// asked again after a replay is apart, and the line has no race.
func (s *search) settle(f found, pairs []twothread.Pair) (found, bool) {
	var fallback *found
	try := func(pr twothread.Pair, c twothread.Collision) bool {
		c, res, ok := s.confirm(pr, c)
		if !ok {
			return false
		}
		g := s.orient(pr, c, res)
		g.replayed = true
		if !g.unreplayed() {
			f = g
			return true
		}
		if fallback == nil {
			fallback = &g
		}
		return false
	}
	tried := map[[2]*twothread.Access]bool{}
	for _, a := range f.alts {
		tried[[2]*twothread.Access{a.pr.A, a.pr.B}] = true
		if try(a.pr, a.c) {
			return f, true
		}
	}
	extra := 0
	for _, pr := range pairs {
		if tried[[2]*twothread.Access{pr.A, pr.B}] || extra >= maxAlts {
			continue
		}
		tried[[2]*twothread.Access{pr.A, pr.B}] = true
		if c, ok := s.k.Collide(pr); ok {
			extra++
			if try(pr, c) {
				return f, true
			}
		}
	}
	if fallback != nil {
		return *fallback, true
	}
	return f, false
}

// replay runs the witness of c, with each fill for the parameters it
// leaves free until one happens. A fill the replay could not finish (its
// budget, an instruction outside its subset) does not undo a refutation
// under another fill: the witness is refuted then, so that it is asked
// again rather than printed as the solver found it.
func (s *search) replay(pr twothread.Pair, c twothread.Collision) replay.Result {
	var res replay.Result
	var refuted *replay.Result
	for _, fill := range replayFills {
		w, ok := s.k.Replay(pr, c, fill)
		if !ok {
			return replay.Result{Reason: "no model"}
		}
		if s.runner == nil {
			s.runner = replay.NewRunner(s.fn, replay.Budget)
		}
		res = s.runner.CheckRace(w)
		if s.log != nil {
			s.log.count(res)
		}
		if res.Observed != nil {
			// Two other threads collided at the two accesses: a race that
			// happens, printed instead of the model's example.
			res.Verdict = replay.Happens
		}
		switch {
		case res.Verdict == replay.Happens:
			return res
		case res.Verdict == replay.Refuted && refuted == nil:
			first := res
			refuted = &first
		}
	}
	if refuted != nil {
		return *refuted
	}
	return res
}

// observed returns collision c with the threads and elements of the
// collision the replay saw in its place.
func (s *search) observed(pr twothread.Pair, c twothread.Collision, o *replay.Collision) twothread.Collision {
	name := s.k.ObjectName(pr.A.Object())
	for i := range 2 {
		c.Threads[i] = o.Threads[i].Name(s.dims, pr.Cross)
		c.Elems[i] = name + o.Elems[i]
	}
	return c
}

func (l *witnessLog) count(res replay.Result) {
	switch res.Verdict {
	case replay.Happens:
		l.Replayed++
	case replay.Refuted:
		l.Refuted++
	default:
		l.Unknown++
	}
}

// unproven words a race whose witness did not happen when replayed: the
// accesses, that they could not be proven apart, what the replay showed
// and the value the model does not track; or one whose witness the replay
// could not run: the example, unconfirmed, and why.
func (s *search) unproven(f found, tail string) string {
	a, b := f.pair.A, f.pair.B
	kind := "shared"
	if a.Object().Global() {
		kind = "global"
	}
	if f.res.Verdict == replay.Unknown {
		return fmt.Sprintf("possible data race on %s %s: the %s at %s and the %s at %s may touch the same element from two threads %s: the solver's example, %s at %s and %s at %s, could not be replayed to confirm it (%s)",
			kind, s.k.ObjectName(a.Object()), noun(a), s.where(a), noun(b), s.where(b), tail,
			f.c.Threads[0], f.c.Elems[0], f.c.Threads[1], f.c.Elems[1], f.res.Reason)
	}
	why := "the indices depend on values the analysis does not track"
	if u := f.c.Untracked(); u != "" {
		why = u + " is not tracked"
	}
	return fmt.Sprintf("possible data race on %s %s: could not prove that the %s at %s and the %s at %s never touch the same element from two threads %s, because %s (the solver's example, %s at %s and %s at %s, did not happen when replayed: %s)",
		kind, s.k.ObjectName(a.Object()), noun(a), s.where(a), noun(b), s.where(b), tail,
		why, f.c.Threads[0], f.c.Elems[0], f.c.Threads[1], f.c.Elems[1], f.res.Reason)
}
