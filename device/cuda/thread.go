package cuda

import (
	"errors"
	"runtime"
)

var errClosed = errors.New("cuda: the device is closed")

// owner is the one OS thread that holds the CUDA context. A CUDA context is
// current per OS thread while goroutines migrate between threads, so every
// driver call runs on this thread: callers hand it closures and wait.
type owner struct {
	jobs    chan func()
	done    chan struct{}
	stopped bool
}

// startOwner starts the owning thread and runs setup on it first.
func startOwner(setup func() error) (*owner, error) {
	o := &owner{jobs: make(chan func(), 1024), done: make(chan struct{})}
	errc := make(chan error, 1)
	go func() {
		// Never unlocked: the thread dies with the goroutine, so no other
		// goroutine ever runs on a thread with our context current.
		runtime.LockOSThread()
		defer close(o.done)
		err := setup()
		errc <- err
		if err != nil {
			return
		}
		for job := range o.jobs {
			job()
		}
	}()
	if err := <-errc; err != nil {
		return nil, err
	}
	return o, nil
}

// do runs f on the owning thread and returns its error.
func (o *owner) do(f func() error) error {
	if o.stopped {
		return errClosed
	}
	errc := make(chan error, 1)
	o.jobs <- func() { errc <- f() }
	return <-errc
}

// post queues f to run on the owning thread and returns at once (jobs run
// in the order they were queued).
func (o *owner) post(f func()) error {
	if o.stopped {
		return errClosed
	}
	o.jobs <- f
	return nil
}

// stop ends the owning thread after the jobs already queued.
func (o *owner) stop() {
	o.stopped = true
	close(o.jobs)
	<-o.done
}
