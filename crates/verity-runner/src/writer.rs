//! The single writer: one thread owns the store connection that records samples, batching
//! whatever has queued up into one transaction.
//!
//! Three rules keep a run from losing or misreporting what it paid for:
//!
//! - **Bounded.** The queue holds at most [`QUEUE`] samples. When SQLite falls behind the
//!   providers, a sample that finished waits to be queued (back-pressure), so memory stays flat
//!   and a process killed at any moment loses at most what is queued or in flight.
//! - **Committed before reported.** A sample's `SampleFinished` event is sent by this thread
//!   after its transaction commits, never before: progress counts stored samples.
//! - **Stop at the first error.** A failed commit (a full disk, an I/O error) is raised at once
//!   through [`FirstStop`], which the engine watches to stop scheduling; the writer stores
//!   nothing after it and counts what it dropped, so the run can say exactly what is stored.

use std::sync::Arc;
use std::thread::JoinHandle;

use tokio::sync::mpsc;
use verity_store::{Store, Write};

use crate::WriterError;
use crate::engine::RunEvent;
use crate::stop::{FirstStop, Stop};

/// How many samples may wait for the writer; when the queue is full, finished samples wait.
pub(crate) const QUEUE: usize = 1024;

/// At most this many writes go into one transaction.
const MAX_BATCH: usize = 512;

pub(crate) enum Msg {
    /// Writes that commit together, and the event that announces them once they have.
    Writes(Vec<Write>, Option<RunEvent>),
    /// Reply once everything sent before has been committed.
    Flush(tokio::sync::oneshot::Sender<Result<(), WriterError>>),
}

/// What the writer did, once it has stopped.
#[derive(Debug, Default)]
pub(crate) struct WriterReport {
    /// The first commit that failed.
    pub(crate) error: Option<WriterError>,
    /// Finished samples that were not stored because of it.
    pub(crate) dropped_samples: u64,
}

pub(crate) struct Writer {
    tx: Option<mpsc::Sender<Msg>>,
    handle: Option<JoinHandle<WriterReport>>,
}

impl Writer {
    /// Starts the writer thread on `store`, its own connection to the run's database (see
    /// [`Store::sibling`]). Events of committed samples go to `events`; the first failure is
    /// raised on `failure`.
    pub(crate) fn spawn(
        mut store: Store,
        events: mpsc::UnboundedSender<RunEvent>,
        failure: Arc<FirstStop>,
    ) -> Result<Writer, verity_store::StoreError> {
        let path = store.path().to_owned();
        let (tx, mut rx) = mpsc::channel::<Msg>(QUEUE);
        let handle = std::thread::Builder::new()
            .name("verity-writer".into())
            .spawn(move || {
                let mut report = WriterReport::default();
                while let Some(first) = rx.blocking_recv() {
                    let mut batch: Vec<Write> = Vec::new();
                    let mut announce: Vec<RunEvent> = Vec::new();
                    let mut samples = 0u64;
                    let mut flushes = Vec::new();
                    let mut push = |m: Msg, batch: &mut Vec<Write>| match m {
                        Msg::Writes(w, ev) => {
                            samples +=
                                u64::from(w.iter().any(|w| matches!(w, Write::Sample { .. })));
                            batch.extend(w);
                            announce.extend(ev);
                        }
                        Msg::Flush(ack) => flushes.push(ack),
                    };
                    push(first, &mut batch);
                    while batch.len() < MAX_BATCH {
                        match rx.try_recv() {
                            Ok(m) => push(m, &mut batch),
                            Err(_) => break,
                        }
                    }
                    if report.error.is_some() {
                        report.dropped_samples += samples;
                    } else if !batch.is_empty() {
                        match store.write(&batch) {
                            Ok(()) => {
                                for ev in announce {
                                    let _ = events.send(ev);
                                }
                            }
                            Err(e) => {
                                let error = WriterError::Commit(e.to_string());
                                failure.raise(Stop::Store(error.clone()));
                                report.error = Some(error);
                                report.dropped_samples += samples;
                            }
                        }
                    }
                    for ack in flushes {
                        let _ = ack.send(report.error.clone().map_or(Ok(()), Err));
                    }
                }
                report
            })
            .map_err(|e| verity_store::StoreError::CreateDir { path, source: e })?;
        Ok(Writer {
            tx: Some(tx),
            handle: Some(handle),
        })
    }

    /// Queues one sample's writes; waits while the queue is full. `done` is sent once they
    /// are committed.
    pub(crate) async fn send(
        &self,
        writes: Vec<Write>,
        done: Option<RunEvent>,
    ) -> Result<(), WriterError> {
        match &self.tx {
            Some(tx) => tx
                .send(Msg::Writes(writes, done))
                .await
                .map_err(|_| WriterError::Stopped),
            None => Err(WriterError::Closed),
        }
    }

    /// Waits until everything sent so far is committed.
    pub(crate) async fn flush(&self) -> Result<(), WriterError> {
        let (ack, done) = tokio::sync::oneshot::channel();
        match &self.tx {
            Some(tx) => tx
                .send(Msg::Flush(ack))
                .await
                .map_err(|_| WriterError::Stopped)?,
            None => return Err(WriterError::Closed),
        }
        done.await.map_err(|_| WriterError::Stopped)?
    }

    /// Commits what is queued, stops the thread and says how it went.
    pub(crate) fn close(mut self) -> WriterReport {
        self.tx.take();
        match self.handle.take().map(|h| h.join()) {
            Some(Ok(report)) => report,
            Some(Err(_)) => WriterReport {
                error: Some(WriterError::Panicked),
                dropped_samples: 0,
            },
            None => WriterReport::default(),
        }
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        self.tx.take();
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}
