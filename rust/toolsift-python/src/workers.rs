//! The batch schedule's helper threads, started once and kept (by index), so each keeps its
//! allocator heap warm and frees what it allocated itself.
//!
//! Why kept threads, and why results go back to the thread that made them: with a thread
//! started per batch, and the results of its slices freed by the thread that builds the
//! Python objects, two workers took 35% more CPU than one for the same work, nearly all of it
//! in mimalloc (`mi_free` 6x, `_mi_page_free_collect` from almost nothing: a free from another
//! thread goes through an atomic list the owner must collect, and a new thread's heap starts
//! cold).

use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use toolsift_core::stream::oneshot::Lean;

/// Work for a helper thread.
pub(crate) enum Task {
    /// Run `f` (a batch's worker loop) with this thread's index.
    Run(Arc<dyn Fn(usize) + Send + Sync>),
    /// Results this thread parsed, done with: dropped here, where they were allocated (those
    /// built after its last slice; the others it frees between slices, see `pyschedule`).
    Free(Vec<Lean>),
}

/// The helper threads started so far in this process.
struct Registry {
    /// The process that started them: a forked child inherits the senders, not the threads.
    pid: u32,
    senders: Vec<Sender<Task>>,
}

fn registry() -> &'static Mutex<Registry> {
    static REGISTRY: OnceLock<Mutex<Registry>> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        Mutex::new(Registry {
            pid: std::process::id(),
            senders: Vec::new(),
        })
    })
}

/// Senders to helper threads `0..count`, starting those not running yet; fewer when a thread
/// cannot be started (the caller's thread then does their share).
pub(crate) fn helpers(count: usize) -> Vec<Sender<Task>> {
    let mut reg = registry().lock().unwrap_or_else(PoisonError::into_inner);
    if reg.pid != std::process::id() {
        reg.pid = std::process::id();
        reg.senders.clear();
    }
    while reg.senders.len() < count {
        let index = reg.senders.len();
        let (tx, rx) = channel::<Task>();
        let started = std::thread::Builder::new()
            .name(format!("toolsift-w{index}"))
            .spawn(move || {
                for task in rx {
                    match task {
                        Task::Run(f) => f(index),
                        Task::Free(results) => drop(results),
                    }
                }
            });
        if started.is_err() {
            break;
        }
        reg.senders.push(tx);
    }
    reg.senders.iter().take(count).cloned().collect()
}
