//! A run's tasks: one row each, in run order, staged while a suite streams in and paged back
//! while the run executes.

use rusqlite::{Connection, params};
use verity_model::{RunMeta, Task};

use crate::runs::insert_run_on;
use crate::{Result, Store, StoreError, json, parse};

/// How many tasks [`Store::task_page`] callers usually ask for at once: enough that paging
/// costs nothing next to the samples, few enough that memory does not depend on the dataset.
pub const TASK_PAGE: usize = 512;

impl Store {
    /// Starts writing the tasks of a run that does not exist yet, as its suite loads: one
    /// transaction until [`TaskStage::commit_run`] adds the run's row, so a load that fails or
    /// a process that dies leaves nothing behind. Dropping the stage without committing rolls it back.
    pub fn stage_tasks(&mut self, run_id: &str) -> Result<TaskStage<'_>> {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        // Every id seen, kept or not, for finding duplicates; private to this connection.
        tx.execute_batch(
            "CREATE TEMP TABLE IF NOT EXISTS staged_ids (
                 task_id TEXT PRIMARY KEY, file TEXT NOT NULL, line INTEGER NOT NULL, col INTEGER NOT NULL
             );
             DELETE FROM temp.staged_ids;",
        )?;
        Ok(TaskStage {
            tx,
            run_id: run_id.to_owned(),
            next: 0,
        })
    }

    /// Removes a run that never started: its row and tasks, when it is still `running` with no
    /// samples and no observations (what a streaming run staged before failing to start, e.g.
    /// on a missing API key or a refused budget). A run with any result, or one the engine
    /// marked (`failed`, `interrupted`), is left alone. Returns how many tasks were removed.
    pub fn discard_unstarted_run(&mut self, run_id: &str) -> Result<u64> {
        let tx = self.conn.transaction()?;
        let started: bool = tx.query_row(
            "SELECT EXISTS (SELECT 1 FROM samples WHERE run_id = ?1)
                 OR EXISTS (SELECT 1 FROM observations WHERE run_id = ?1)
                 OR EXISTS (SELECT 1 FROM runs WHERE id = ?1 AND status != 'running')",
            [run_id],
            |r| r.get(0),
        )?;
        if started {
            return Ok(0);
        }
        let n = tx.execute("DELETE FROM tasks WHERE run_id = ?1", [run_id])?;
        tx.execute("DELETE FROM runs WHERE id = ?1", [run_id])?;
        tx.commit()?;
        Ok(n as u64)
    }

    /// How many tasks the run has.
    pub fn task_count(&self, run_id: &str) -> Result<u64> {
        let n: i64 = self.conn.query_row(
            "SELECT count(*) FROM tasks WHERE run_id = ?1",
            [run_id],
            |r| r.get(0),
        )?;
        Ok(n as u64)
    }

    /// Up to `limit` of the run's tasks after position `after` (`None`: from the start), in
    /// run order, each with its position.
    pub fn task_page(
        &self,
        run_id: &str,
        after: Option<u64>,
        limit: usize,
    ) -> Result<Vec<(u64, Task)>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT idx, task_json FROM tasks WHERE run_id = ?1 AND idx > ?2 ORDER BY idx LIMIT ?3",
        )?;
        let after = after.map_or(-1, |a| a as i64);
        let mut rows = stmt.query(params![run_id, after, limit as i64])?;
        let mut out = Vec::with_capacity(limit.min(TASK_PAGE));
        while let Some(r) = rows.next()? {
            let idx: i64 = r.get(0)?;
            let text: String = r.get(1)?;
            out.push((idx as u64, parse("stored task", &text)?));
        }
        Ok(out)
    }

    /// Every task of the run, in run order.
    pub fn load_tasks(&self, run_id: &str) -> Result<Vec<Task>> {
        read_tasks(&self.conn, run_id)
    }
}

/// Inserts `tasks` as positions `first…` of `run_id`.
pub(crate) fn insert_tasks_on(
    conn: &Connection,
    run_id: &str,
    first: u64,
    tasks: &[Task],
) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO tasks (run_id, idx, task_id, task_json) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for (i, t) in tasks.iter().enumerate() {
        stmt.execute(params![run_id, (first + i as u64) as i64, t.id, json(t)])?;
    }
    Ok(())
}

/// Every task of `run_id` in run order.
pub(crate) fn read_tasks(conn: &Connection, run_id: &str) -> Result<Vec<Task>> {
    let mut stmt =
        conn.prepare_cached("SELECT task_json FROM tasks WHERE run_id = ?1 ORDER BY idx")?;
    let mut rows = stmt.query([run_id])?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        let text: String = r.get(0)?;
        out.push(parse("stored task", &text)?);
    }
    Ok(out)
}

/// A run's tasks read back a page of [`TASK_PAGE`] at a time, in run order. It keeps only its
/// position between pages, not a borrow of the store, so an async runner can hold it across
/// `.await`s.
#[derive(Debug)]
pub struct TaskPages {
    run_id: String,
    after: Option<u64>,
}

impl TaskPages {
    pub fn new(run_id: &str) -> TaskPages {
        TaskPages {
            run_id: run_id.to_owned(),
            after: None,
        }
    }

    /// The next page, or `None` after the last task.
    pub fn next(&mut self, store: &Store) -> Result<Option<Vec<Task>>> {
        let page = store.task_page(&self.run_id, self.after, TASK_PAGE)?;
        let Some(&(last, _)) = page.last() else {
            return Ok(None);
        };
        self.after = Some(last);
        Ok(Some(page.into_iter().map(|(_, t)| t).collect()))
    }
}

/// A run's tasks being written while its suite loads (see [`Store::stage_tasks`]).
pub struct TaskStage<'a> {
    tx: rusqlite::Transaction<'a>,
    run_id: String,
    next: u64,
}

/// Why a staged task was not stored.
#[derive(Debug, thiserror::Error)]
pub enum StageError {
    /// The run already has a task with this id; `first` is where that one was defined.
    #[error("duplicate task id `{id}`")]
    Duplicate {
        id: String,
        first: verity_model::SourceLoc,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl TaskStage<'_> {
    /// Offers the suite's next task: its id is checked against every id offered before (a
    /// duplicate is refused, naming where the first was defined), and the task is appended
    /// to the run when `keep` (the run's selection takes it).
    pub fn put(&mut self, task: &Task, keep: bool) -> Result<(), StageError> {
        // One statement in the common case; the lookup only for a duplicate.
        let inserted = self
            .tx
            .prepare_cached(
                "INSERT INTO temp.staged_ids (task_id, file, line, col) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (task_id) DO NOTHING",
            )
            .and_then(|mut s| {
                s.execute(params![
                    task.id,
                    task.source.file,
                    task.source.line,
                    task.source.column
                ])
            })
            .map_err(StoreError::from)?;
        if inserted == 0 {
            let first = self
                .tx
                .query_row(
                    "SELECT file, line, col FROM temp.staged_ids WHERE task_id = ?1",
                    [&task.id],
                    |r| {
                        Ok(verity_model::SourceLoc {
                            file: r.get(0)?,
                            line: r.get(1)?,
                            column: r.get(2)?,
                        })
                    },
                )
                .map_err(StoreError::from)?;
            return Err(StageError::Duplicate {
                id: task.id.clone(),
                first,
            });
        }
        if keep {
            insert_tasks_on(
                &self.tx,
                &self.run_id,
                self.next,
                std::slice::from_ref(task),
            )?;
            self.next += 1;
        }
        Ok(())
    }

    /// How many tasks are kept.
    pub fn len(&self) -> u64 {
        self.next
    }

    pub fn is_empty(&self) -> bool {
        self.next == 0
    }

    /// Makes the staged tasks durable together with their run's row (`meta`, whose suite
    /// carries no tasks: the staged rows are its tasks), in the one transaction the stage
    /// began: a process killed at any moment leaves either nothing or a run that `--resume`
    /// finds. Returns how many tasks the run has.
    pub fn commit_run(self, meta: &RunMeta) -> Result<u64> {
        let n = self.next;
        debug_assert_eq!(meta.id, self.run_id);
        insert_run_on(&self.tx, meta)?;
        self.tx.execute_batch("DELETE FROM temp.staged_ids")?;
        self.tx.commit()?;
        Ok(n)
    }
}
