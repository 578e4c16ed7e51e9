//! The single writer: one thread owns the store connection that records samples, batching
//! whatever has queued up into one transaction.

use std::path::Path;
use std::sync::mpsc;
use std::thread::JoinHandle;

use verity_store::{Store, Write};

pub(crate) enum Msg {
    Writes(Vec<Write>),
    /// Reply once everything sent before has been committed.
    Flush(tokio::sync::oneshot::Sender<Result<(), String>>),
}

pub(crate) struct Writer {
    tx: Option<mpsc::Sender<Msg>>,
    handle: Option<JoinHandle<Result<(), String>>>,
}

/// At most this many writes go into one transaction.
const MAX_BATCH: usize = 512;

impl Writer {
    pub(crate) fn spawn(path: &Path) -> Result<Writer, verity_store::StoreError> {
        let mut store = Store::open(path)?;
        let (tx, rx) = mpsc::channel::<Msg>();
        let handle = std::thread::Builder::new()
            .name("verity-writer".into())
            .spawn(move || {
                let mut failed: Option<String> = None;
                while let Ok(first) = rx.recv() {
                    let mut batch: Vec<Write> = Vec::new();
                    let mut flushes = Vec::new();
                    let mut push = |m: Msg, batch: &mut Vec<Write>| match m {
                        Msg::Writes(w) => batch.extend(w),
                        Msg::Flush(ack) => flushes.push(ack),
                    };
                    push(first, &mut batch);
                    while batch.len() < MAX_BATCH {
                        match rx.try_recv() {
                            Ok(m) => push(m, &mut batch),
                            Err(_) => break,
                        }
                    }
                    if failed.is_none()
                        && !batch.is_empty()
                        && let Err(e) = store.write(&batch)
                    {
                        failed = Some(e.to_string());
                    }
                    for ack in flushes {
                        let _ = ack.send(failed.clone().map_or(Ok(()), Err));
                    }
                }
                failed.map_or(Ok(()), Err)
            })
            .map_err(|e| verity_store::StoreError::CreateDir {
                path: path.to_owned(),
                source: e,
            })?;
        Ok(Writer {
            tx: Some(tx),
            handle: Some(handle),
        })
    }

    pub(crate) fn send(&self, writes: Vec<Write>) -> Result<(), String> {
        match &self.tx {
            Some(tx) => tx
                .send(Msg::Writes(writes))
                .map_err(|_| "the writer thread has stopped".to_owned()),
            None => Err("the writer is closed".into()),
        }
    }

    /// Waits until everything sent so far is committed.
    pub(crate) async fn flush(&self) -> Result<(), String> {
        let (ack, done) = tokio::sync::oneshot::channel();
        match &self.tx {
            Some(tx) => tx
                .send(Msg::Flush(ack))
                .map_err(|_| "the writer thread has stopped".to_owned())?,
            None => return Err("the writer is closed".into()),
        }
        done.await
            .map_err(|_| "the writer thread has stopped".to_owned())?
    }

    /// Commits what is queued and stops the thread.
    pub(crate) fn close(mut self) -> Result<(), String> {
        self.tx.take();
        match self.handle.take() {
            Some(h) => h
                .join()
                .map_err(|_| "the writer thread panicked".to_owned())?,
            None => Ok(()),
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
