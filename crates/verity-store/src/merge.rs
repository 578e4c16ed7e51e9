//! Merging the shards of a run (`verity run --shard K/N`, possibly on several machines, each
//! into its own database) back into one run.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params, params_from_iter};
use verity_model::{PreflightInfo, RunMeta, RunOptions, RunStatus, Score, Shard, Task};

use crate::runs::insert_run_on;
use crate::schema::connect_read_only;
use crate::tasks::{insert_tasks_on, read_tasks};
use crate::{MIGRATIONS, Result, Store, StoreError, json, ms_sql, parse};

/// What [`Store::merge_shards`] wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeSummary {
    pub run_id: String,
    /// How many shards were merged (their count N).
    pub shards: u32,
    pub samples: u64,
    pub observations: u64,
    /// Group scores (`group:<key>` scopes) whose members were spread over several shards: each
    /// shard judged only its part, so the merged row holds every part's scores, each marked
    /// partial in its explanation. `verity rescore` judges such groups whole.
    pub split_groups: u64,
}

/// A run that is one shard, as found in a source database.
struct ShardRun {
    /// Index into the source list.
    source: usize,
    meta: RunMeta,
    shard: Shard,
}

fn merge_err(msg: String) -> StoreError {
    StoreError::Merge(msg)
}

/// `K/N`, 1-based like `--shard`.
fn label(s: Shard) -> String {
    format!("{}/{}", u64::from(s.index) + 1, s.count)
}

fn open_source(path: &Path) -> Result<Connection> {
    let conn = connect_read_only(path)?;
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let known = MIGRATIONS.len() as i64;
    if version > known {
        return Err(StoreError::TooNew {
            found: version,
            known,
        });
    }
    if version < 1 {
        return Err(merge_err(format!(
            "{} is not a verity database",
            path.display()
        )));
    }
    Ok(conn)
}

/// Every run of `conn` started as a shard.
fn shard_runs(conn: &Connection, source: usize, out: &mut Vec<ShardRun>) -> Result<()> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let has_tasks_table = version >= 3;
    let mut stmt =
        conn.prepare("SELECT id, meta_json, status, finished_at, scoring FROM runs ORDER BY id")?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        let id: String = r.get(0)?;
        let meta_json: String = r.get(1)?;
        let mut meta: RunMeta = parse(&format!("metadata of run {id}"), &meta_json)?;
        let Some(shard) = meta.options.shard else {
            continue;
        };
        // Databases from before migration 3 keep the tasks in the run row.
        if has_tasks_table {
            meta.suite.tasks = read_tasks(conn, &id)?;
        }
        meta.id = id;
        meta.status = RunStatus::parse(&r.get::<_, String>(2)?).unwrap_or(RunStatus::Failed);
        meta.finished_at = r.get(3)?;
        meta.scoring = r.get(4)?;
        out.push(ShardRun {
            source,
            meta,
            shard,
        });
    }
    Ok(())
}

/// Picks one run per shard index and checks that they are slices of the same run.
fn select(runs: Vec<ShardRun>, paths: &[PathBuf]) -> Result<Vec<ShardRun>> {
    let who = |r: &ShardRun| format!("run `{}` ({})", r.meta.id, paths[r.source].display());
    let Some(first) = runs.first() else {
        let list: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(merge_err(format!(
            "no run started with --shard in {}",
            list.join(", ")
        )));
    };
    let count = first.shard.count;
    if let Some(other) = runs.iter().find(|r| r.shard.count != count) {
        return Err(merge_err(format!(
            "the shard counts differ: {} is shard {} but {} is shard {}",
            who(first),
            label(first.shard),
            who(other),
            label(other.shard)
        )));
    }
    let mut slots: Vec<Option<ShardRun>> = (0..count).map(|_| None).collect();
    for r in runs {
        let Some(slot) = slots.get_mut(r.shard.index as usize) else {
            return Err(merge_err(format!(
                "{} claims shard {}, which does not exist",
                who(&r),
                label(r.shard)
            )));
        };
        if let Some(prev) = slot {
            return Err(merge_err(format!(
                "shard {} is claimed by two runs: {} and {}",
                label(r.shard),
                who(prev),
                who(&r)
            )));
        }
        *slot = Some(r);
    }
    let missing: Vec<String> = (0..count)
        .filter(|&i| slots[i as usize].is_none())
        .map(|index| label(Shard { index, count }))
        .collect();
    let shards: Vec<ShardRun> = slots.into_iter().flatten().collect();
    if !missing.is_empty() {
        let found: Vec<String> = shards
            .iter()
            .map(|r| format!("{} = {}", label(r.shard), who(r)))
            .collect();
        return Err(merge_err(format!(
            "missing shard{} {} (found {})",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", "),
            found.join("; ")
        )));
    }
    let base = &shards[0];
    for r in &shards[1..] {
        let differ = |what: &str, a: &dyn std::fmt::Debug, b: &dyn std::fmt::Debug| {
            merge_err(format!(
                "the shards are not slices of one run: {} (shard {}) has {what} {a:?} but {} (shard {}) has {b:?}",
                who(base),
                label(base.shard),
                who(r),
                label(r.shard)
            ))
        };
        let (a, b) = (&base.meta, &r.meta);
        if a.suite.content_hash != b.suite.content_hash {
            return Err(differ(
                "suite hash",
                &a.suite.content_hash,
                &b.suite.content_hash,
            ));
        }
        if a.options.variants != b.options.variants {
            return Err(differ("variants", &a.options.variants, &b.options.variants));
        }
        if a.models != b.models {
            return Err(differ("models", &a.models, &b.models));
        }
        if a.suite.epochs != b.suite.epochs {
            return Err(differ("epochs", &a.suite.epochs, &b.suite.epochs));
        }
        if a.options.filter != b.options.filter {
            return Err(differ("task filter", &a.options.filter, &b.options.filter));
        }
        if a.options.failed_in != b.options.failed_in {
            return Err(differ(
                "--failed-in run",
                &a.options.failed_in,
                &b.options.failed_in,
            ));
        }
        if a.options.limit != b.options.limit {
            return Err(differ("task limit", &a.options.limit, &b.options.limit));
        }
    }
    Ok(shards)
}

/// The full suite's tasks in their original order: task `i` is task `i / N` of shard `i % N`.
fn interleave(shards: &[ShardRun]) -> Result<Vec<Task>> {
    let n = shards.len();
    let total: usize = shards.iter().map(|s| s.meta.suite.tasks.len()).sum();
    let mut tasks = Vec::with_capacity(total);
    let mut seen = HashSet::new();
    while let Some(t) = shards
        .get(tasks.len() % n)
        .and_then(|s| s.meta.suite.tasks.get(tasks.len() / n))
    {
        if !seen.insert(t.id.as_str()) {
            return Err(merge_err(format!(
                "task `{}` appears in more than one shard",
                t.id
            )));
        }
        tasks.push(t.clone());
    }
    if tasks.len() != total {
        let counts: Vec<String> = shards
            .iter()
            .map(|s| format!("{}: {}", label(s.shard), s.meta.suite.tasks.len()))
            .collect();
        return Err(merge_err(format!(
            "the shards' task counts ({}) cannot come from one suite split {n} ways",
            counts.join(", ")
        )));
    }
    Ok(tasks)
}

/// Copies every row `select` yields from `src` into `dst` with `insert`, whose parameters are
/// `fixed` followed by the selected columns. Returns how many rows were copied.
fn copy_rows(
    src: &Connection,
    select: &str,
    args: impl rusqlite::Params,
    dst: &Connection,
    insert: &str,
    fixed: &[Value],
) -> Result<u64> {
    let mut sel = src.prepare(select)?;
    let columns = sel.column_count();
    let mut ins = dst.prepare(insert)?;
    let mut rows = sel.query(args)?;
    let mut copied = 0;
    let mut values: Vec<Value> = Vec::with_capacity(fixed.len() + columns);
    while let Some(row) = rows.next()? {
        values.clear();
        values.extend_from_slice(fixed);
        for i in 0..columns {
            values.push(row.get(i)?);
        }
        ins.execute(params_from_iter(values.iter()))?;
        copied += 1;
    }
    Ok(copied)
}

fn mark_partial(scores: &mut [Score], shard: Shard) {
    let note = format!(
        "partial: judged over this group's tasks in shard {} only; `verity rescore` judges the whole group",
        label(shard)
    );
    for s in scores {
        s.explanation = Some(match s.explanation.take() {
            Some(e) => format!("{e} [{note}]"),
            None => note.clone(),
        });
    }
}

type GroupKey = (String, String, String);

impl Store {
    /// Combines the shards of one run (each source database holds runs whose `options.shard` is set)
    /// into a single run `new_id` in this database. Requires exactly one run per shard index
    /// 0..count, all with the same suite content hash, variants, epochs and shard count; errors name
    /// what is missing or inconsistent. The merged run's suite lists the tasks in their original order
    /// (task i of the full suite is task i / count of shard i % count), `options.shard = None`,
    /// total_samples = sum, started_at = earliest, finished_at = latest (None if any shard is unfinished),
    /// status = completed only if every shard completed (else interrupted), scoring = 1, and it holds every
    /// sample with its current-scoring scores (stored as scoring 1), group scores, and observations.
    /// One transaction: on any error nothing is written.
    ///
    /// Sources are read through their own read-only connections, so this database may be one
    /// of them; a path given twice is read once. The shard runs stay where they are.
    pub fn merge_shards(&mut self, sources: &[PathBuf], new_id: &str) -> Result<MergeSummary> {
        let mut seen = HashSet::new();
        let paths: Vec<PathBuf> = sources
            .iter()
            .filter(|p| seen.insert(std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())))
            .cloned()
            .collect();
        if paths.is_empty() {
            return Err(merge_err("no source database given".into()));
        }
        let conns: Vec<Connection> = paths
            .iter()
            .map(|p| open_source(p))
            .collect::<Result<_>>()?;
        let mut runs = Vec::new();
        for (i, c) in conns.iter().enumerate() {
            shard_runs(c, i, &mut runs)?;
        }
        let shards = select(runs, &paths)?;
        let tasks = interleave(&shards)?;
        let count = shards[0].shard.count;

        let ms = |s: &str| -> Result<Option<i64>> {
            Ok(self
                .conn
                .query_row(&format!("SELECT {}", ms_sql("?1")), [s], |r| r.get(0))?)
        };
        let mut started: Option<(Option<i64>, &str)> = None;
        let mut finished: Option<(Option<i64>, &str)> = None;
        let mut all_finished = true;
        for s in &shards {
            let t = (ms(&s.meta.started_at)?, s.meta.started_at.as_str());
            if started.is_none_or(|e| t < e) {
                started = Some(t);
            }
            match &s.meta.finished_at {
                Some(f) => {
                    let t = (ms(f)?, f.as_str());
                    if finished.is_none_or(|l| t > l) {
                        finished = Some(t);
                    }
                }
                None => all_finished = false,
            }
        }
        let base = &shards[0].meta;
        let mut suite = base.suite.clone();
        suite.tasks = tasks;
        let mut prompt_hashes = base.prompt_hashes.clone();
        for s in &shards[1..] {
            for (k, v) in &s.meta.prompt_hashes {
                prompt_hashes.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
        let meta = RunMeta {
            id: new_id.to_owned(),
            suite_path: base.suite_path.clone(),
            suite,
            options: RunOptions {
                categories: Vec::new(),
                shard: None,
                ..base.options.clone()
            },
            started_at: started.map(|(_, s)| s.to_owned()).unwrap_or_default(),
            finished_at: if all_finished {
                finished.map(|(_, s)| s.to_owned())
            } else {
                None
            },
            status: if shards.iter().all(|s| s.meta.status == RunStatus::Completed) {
                RunStatus::Completed
            } else {
                RunStatus::Interrupted
            },
            verity_version: base.verity_version.clone(),
            models: base.models.clone(),
            prompt_hashes,
            total_samples: shards.iter().map(|s| s.meta.total_samples).sum(),
            scoring: 1,
            // Each shard's pre-flight, merged: its facts (the machines may differ; the first
            // shard's value of a fact is kept) and every warning and note once.
            preflight: merged_preflight(shards.iter().map(|s| &s.meta.preflight)),
            liveness: Default::default(),
        };
        let position: HashMap<&str, usize> = meta
            .suite
            .tasks
            .iter()
            .enumerate()
            .map(|(i, t)| (t.id.as_str(), i))
            .collect();

        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let exists: Option<i64> = tx
            .query_row("SELECT 1 FROM runs WHERE id = ?1", [new_id], |r| r.get(0))
            .optional()?;
        if exists.is_some() {
            return Err(merge_err(format!(
                "a run `{new_id}` already exists in {}",
                self.path.display()
            )));
        }
        insert_run_on(&tx, &meta)?;
        insert_tasks_on(&tx, new_id, 0, &meta.suite.tasks)?;
        let id = Value::Text(new_id.to_owned());
        let mut samples = 0;
        let mut observations = 0;
        let mut first_shard: HashMap<GroupKey, Shard> = HashMap::new();
        let mut split: HashSet<GroupKey> = HashSet::new();
        for s in &shards {
            let src = &conns[s.source];
            let run = s.meta.id.as_str();
            samples += copy_rows(
                src,
                "SELECT task_id, variant, epoch, response_json, error_kind, input_tokens,
                        output_tokens, latency_ms, cache_hit, completed_at
                 FROM samples WHERE run_id = ?1 ORDER BY task_id, variant, epoch",
                [run],
                &tx,
                "INSERT INTO samples (run_id, task_id, variant, epoch, response_json, error_kind,
                     input_tokens, output_tokens, latency_ms, cache_hit, completed_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                std::slice::from_ref(&id),
            )?;
            copy_rows(
                src,
                "SELECT c.task_id, c.variant, c.epoch, c.outcome, c.scores_json
                 FROM scores c JOIN samples s
                   ON s.run_id = c.run_id AND s.task_id = c.task_id AND s.variant = c.variant
                  AND s.epoch = c.epoch
                 WHERE c.run_id = ?1 AND c.scoring = ?2",
                params![run, s.meta.scoring],
                &tx,
                "INSERT INTO scores (run_id, scoring, task_id, variant, epoch, outcome, scores_json)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                &[id.clone(), Value::Integer(1)],
            )?;
            observations += copy_rows(
                src,
                "SELECT task_id, variant, epoch, attempt, started_at, provider, model, endpoint,
                        prompt_hash, input_hash, raw_response, output_text, input_tokens,
                        output_tokens, latency_ms, cache_hit, error_kind, error
                 FROM observations WHERE run_id = ?1 ORDER BY id",
                [run],
                &tx,
                "INSERT INTO observations (run_id, task_id, variant, epoch, attempt, started_at,
                     provider, model, endpoint, prompt_hash, input_hash, raw_response, output_text,
                     input_tokens, output_tokens, latency_ms, cache_hit, error_kind, error)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,
                         ?17, ?18, ?19)",
                std::slice::from_ref(&id),
            )?;

            let mut groups = src.prepare(
                "SELECT variant, scope, grp, task_ids_json, scores_json FROM group_scores
                 WHERE run_id = ?1 AND scoring = ?2 ORDER BY variant, scope, grp",
            )?;
            let mut rows = groups.query(params![run, s.meta.scoring])?;
            while let Some(r) = rows.next()? {
                let key: GroupKey = (r.get(0)?, r.get(1)?, r.get(2)?);
                let task_ids: String = r.get(3)?;
                let scores: String = r.get(4)?;
                let Some(&first) = first_shard.get(&key) else {
                    tx.execute(
                        "INSERT INTO group_scores (run_id, scoring, variant, scope, grp, task_ids_json, scores_json)
                         VALUES (?1, 1, ?2, ?3, ?4, ?5, ?6)",
                        params![new_id, key.0, key.1, key.2, task_ids, scores],
                    )?;
                    first_shard.insert(key, s.shard);
                    continue;
                };
                // The group straddles shards: keep every part, each marked partial.
                let (old_ids, old_scores): (String, String) = tx.query_row(
                    "SELECT task_ids_json, scores_json FROM group_scores
                     WHERE run_id = ?1 AND scoring = 1 AND variant = ?2 AND scope = ?3 AND grp = ?4",
                    params![new_id, key.0, key.1, key.2],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )?;
                let mut ids: Vec<String> = parse("group task ids", &old_ids)?;
                let mut all: Vec<Score> = parse("group scores", &old_scores)?;
                if split.insert(key.clone()) {
                    mark_partial(&mut all, first);
                }
                let mut part: Vec<Score> = parse("group scores", &scores)?;
                mark_partial(&mut part, s.shard);
                all.extend(part);
                ids.extend(parse::<Vec<String>>("group task ids", &task_ids)?);
                ids.sort_by_key(|t| position.get(t.as_str()).copied().unwrap_or(usize::MAX));
                tx.execute(
                    "UPDATE group_scores SET task_ids_json = ?5, scores_json = ?6
                     WHERE run_id = ?1 AND scoring = 1 AND variant = ?2 AND scope = ?3 AND grp = ?4",
                    params![new_id, key.0, key.1, key.2, json(&ids), json(&all)],
                )?;
            }
        }
        tx.commit()?;
        Ok(MergeSummary {
            run_id: new_id.to_owned(),
            shards: count,
            samples,
            observations,
            split_groups: split.len() as u64,
        })
    }
}

/// The pre-flight records of several shards as one: per scorer, the first shard's value of
/// each fact and every distinct warning and note in shard order.
fn merged_preflight<'a>(
    shards: impl Iterator<Item = &'a BTreeMap<String, PreflightInfo>>,
) -> BTreeMap<String, PreflightInfo> {
    let mut out: BTreeMap<String, PreflightInfo> = BTreeMap::new();
    for p in shards {
        for (scorer, info) in p {
            let m = out.entry(scorer.clone()).or_default();
            for (k, v) in &info.facts {
                m.facts.entry(k.clone()).or_insert_with(|| v.clone());
            }
            for w in &info.warnings {
                if !m.warnings.contains(w) {
                    m.warnings.push(w.clone());
                }
            }
            for n in &info.notes {
                if !m.notes.contains(n) {
                    m.notes.push(n.clone());
                }
            }
        }
    }
    out
}
