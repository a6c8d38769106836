//! One cancellable job thread: the shape of every background worker of the explorer (the solver,
//! the search lab, reachability), after gitui's `AsyncSingleJob`.
//!
//! The UI starts job `job` on an input with [`JobThread::start`]: that raises the stop flag of the
//! job before (so it ends within a few thousand nodes) and queues the new one with a fresh flag.
//! The thread runs one job at a time and skips to the newest request, since the ones queued before
//! it are stale. The work reports as [`super::app::Msg`]s on the explorer's one channel, tagged
//! with the job's number, so the UI drops what a cancelled job still sends. When nobody listens
//! any more the work returns [`Gone`] and the thread ends; dropping the handle stops the running
//! job and joins the thread.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::thread::JoinHandle;

/// The receiving end has gone (the explorer is quitting): the thread ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gone;

enum Request<T> {
    Run { job: u64, input: T, stop: Arc<AtomicBool> },
    Shutdown,
}

/// The handle of a job thread. Dropping it stops the running job and joins the thread.
pub struct JobThread<T: Send + 'static> {
    requests: Sender<Request<T>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl<T: Send + 'static> JobThread<T> {
    /// Starts the thread `name`. `make` runs on the thread first (to open what the work needs
    /// there, such as the store) and returns the work: `work(job, input, stop)` runs one job,
    /// checking `stop` as it goes.
    pub fn spawn<F>(name: &str, make: impl FnOnce() -> F + Send + 'static) -> std::io::Result<JobThread<T>>
    where
        F: FnMut(u64, T, &Arc<AtomicBool>) -> Result<(), Gone>,
    {
        let (requests, rx) = channel::<Request<T>>();
        let thread = std::thread::Builder::new().name(name.into()).spawn(move || {
            let mut work = make();
            while let Ok(mut request) = rx.recv() {
                // Only the newest request matters: the ones before it are stale.
                while let Ok(next) = rx.try_recv() {
                    request = next;
                }
                match request {
                    Request::Shutdown => return,
                    Request::Run { job, input, stop } => {
                        if work(job, input, &stop).is_err() {
                            return;
                        }
                    }
                }
            }
        })?;
        Ok(JobThread { requests, stop: Arc::new(AtomicBool::new(false)), thread: Some(thread) })
    }

    /// Cancels the running job and starts `input` as job `job`.
    pub fn start(&mut self, job: u64, input: T) {
        self.cancel();
        self.stop = Arc::new(AtomicBool::new(false));
        let _ = self.requests.send(Request::Run { job, input, stop: self.stop.clone() });
    }

    /// Cancels the running job, if any.
    pub fn cancel(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl<T: Send + 'static> Drop for JobThread<T> {
    fn drop(&mut self) {
        self.cancel();
        let _ = self.requests.send(Request::Shutdown);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_new_job_stops_the_one_before_and_a_dropped_handle_joins() {
        let (tx, rx) = channel();
        let mut thread = JobThread::<u32>::spawn("test", move || {
            move |job: u64, input: u32, stop: &Arc<AtomicBool>| {
                // Job 1 waits for its stop; the others answer at once.
                while input == 0 && !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                tx.send((job, input, stop.load(Ordering::Relaxed))).map_err(|_| Gone)
            }
        })
        .unwrap();
        thread.start(1, 0);
        std::thread::sleep(Duration::from_millis(20));
        thread.start(2, 7);
        assert_eq!(rx.recv_timeout(Duration::from_secs(10)).unwrap(), (1, 0, true));
        assert_eq!(rx.recv_timeout(Duration::from_secs(10)).unwrap(), (2, 7, false));
        drop(thread);
        assert!(rx.recv_timeout(Duration::from_millis(100)).is_err());
    }
}
