//! The autosave writer (issue 37): every change is autosaved (DESIGN,
//! "Nothing lost"), but writing, syncing and reading a file back costs
//! milliseconds, so it is done here, on a thread of its own, never on the
//! window's. The window hands over each game's latest state as a job; a
//! game's job not started yet is replaced by its newer one (the latest
//! state wins, the game is never behind by more than the write under way),
//! and a failure is put on the bus at once, so the status line says it in
//! the next frame. Quitting, and anything that reads the autosaves, waits
//! for what is pending first.

use crate::app::bus::{AppCommand, Bus};
use crate::app::status::Status;
use muster::core::store::AutosaveJob;
use std::sync::{Arc, Condvar, Mutex};

#[derive(Default)]
struct Queue {
    /// Jobs waiting, one per game, oldest game first.
    waiting: Vec<AutosaveJob>,
    /// A job is being written now.
    busy: bool,
    /// The window is gone: the thread ends once the queue is empty.
    closing: bool,
}

type Shared = Arc<(Mutex<Queue>, Condvar)>;

pub struct Writer {
    shared: Shared,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Writer {
    /// The writer, its failures said on `bus`.
    pub fn new(bus: Bus) -> Writer {
        let shared: Shared = Default::default();
        let queue = shared.clone();
        let thread = std::thread::Builder::new()
            .name("autosave".into())
            .spawn(move || write_all(&queue, &bus))
            .ok();
        Writer { shared, thread }
    }

    /// Autosaves `job`'s game: in place of its job still waiting, if any.
    pub fn write(&self, job: AutosaveJob) {
        let (lock, wake) = &*self.shared;
        let mut queue = lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match queue.waiting.iter_mut().find(|j| j.id() == job.id()) {
            Some(waiting) => *waiting = job,
            None => queue.waiting.push(job),
        }
        wake.notify_all();
    }

    /// Waits until every job handed over is written (or failed).
    pub fn flush(&self) {
        let (lock, wake) = &*self.shared;
        let mut queue = lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        while self.thread.is_some() && (queue.busy || !queue.waiting.is_empty()) {
            queue = wake
                .wait(queue)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }
}

impl Drop for Writer {
    /// What is pending is written before the window goes: nothing lost.
    fn drop(&mut self) {
        {
            let (lock, wake) = &*self.shared;
            let mut queue = lock
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            queue.closing = true;
            wake.notify_all();
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn write_all(shared: &Shared, bus: &Bus) {
    let (lock, wake) = &**shared;
    loop {
        let job = {
            let mut queue = lock
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            queue.busy = false;
            wake.notify_all();
            loop {
                if !queue.waiting.is_empty() {
                    break;
                }
                if queue.closing {
                    return;
                }
                queue = wake
                    .wait(queue)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
            }
            queue.busy = true;
            queue.waiting.remove(0)
        };
        if let Err(e) = job.run() {
            bus.app(AppCommand::Say(Status::Error(format!(
                "Autosave failed ({e}); the game is still open: use File > Save as…"
            ))));
        }
    }
}
