use verity_model::SampleKey;

use crate::{Observation, Store, StoreError, Write};

fn obs(run: &str, task: &str, started_at: &str) -> Observation {
    Observation {
        run_id: run.into(),
        key: SampleKey {
            task_id: task.into(),
            variant: "a".into(),
            epoch: 0,
        },
        attempt: 1,
        started_at: started_at.into(),
        provider: "mock".into(),
        model: "m".into(),
        endpoint: "mock://".into(),
        prompt_hash: "p".into(),
        input_hash: "i".into(),
        raw_response: Some("{}".into()),
        output_text: Some("x".into()),
        input_tokens: 1,
        output_tokens: 1,
        latency_ms: 1,
        cache_hit: false,
        error_kind: None,
        error: None,
    }
}

/// A store with two runs and observation `d0`..`d9`, observation `dN` started N days before
/// 2026-01-31T00:00:00Z (so `d0` is the newest), spread over both runs.
fn ten_days() -> Store {
    let mut s = Store::open_in_memory().unwrap();
    s.insert_run(&super::meta("r1", "2026-01-01T00:00:00Z"))
        .unwrap();
    s.insert_run(&super::meta("r2", "2026-01-02T00:00:00Z"))
        .unwrap();
    // Written oldest first, some with milliseconds and some without.
    let writes: Vec<Write> = (0..10)
        .rev()
        .map(|d: u32| {
            let day = 31 - d;
            let fraction = ["", ".000"][d as usize % 2];
            let t = format!("2026-01-{day:02}T00:00:00{fraction}Z");
            Write::Observation(obs(if d < 5 { "r1" } else { "r2" }, &format!("d{d}"), &t))
        })
        .collect();
    s.write(&writes).unwrap();
    s
}

fn survivors(s: &Store) -> Vec<String> {
    let mut v: Vec<String> = ["r1", "r2"]
        .iter()
        .flat_map(|r| s.observations(r).unwrap())
        .map(|o| o.key.task_id)
        .collect();
    v.sort();
    v
}

const NOW: &str = "2026-01-31T00:00:00Z";

#[test]
fn keep_last_wins_when_it_is_larger() {
    let mut s = ten_days();
    // The last 2 days reach d0..d2 (d2 exactly on the boundary); the last 5 reach d0..d4.
    assert_eq!(s.prune_observations(5, 2, NOW).unwrap(), 5);
    assert_eq!(survivors(&s), ["d0", "d1", "d2", "d3", "d4"]);
    // Idempotent.
    assert_eq!(s.prune_observations(5, 2, NOW).unwrap(), 0);
}

#[test]
fn keep_days_wins_when_it_is_larger() {
    let mut s = ten_days();
    // The last 6 days reach d0..d6 (d6 exactly on the boundary, kept); the last 2 only d0, d1.
    assert_eq!(s.prune_observations(2, 6, NOW).unwrap(), 3);
    assert_eq!(survivors(&s), ["d0", "d1", "d2", "d3", "d4", "d5", "d6"]);
}

#[test]
fn keeping_nothing_deletes_everything_older_than_now() {
    let mut s = ten_days();
    // `now` is d0's start: d0 is within 0 days of it, the rest are older.
    assert_eq!(s.prune_observations(0, 0, NOW).unwrap(), 9);
    assert_eq!(survivors(&s), ["d0"]);
    // A huge keep_last keeps everything.
    let mut s = ten_days();
    assert_eq!(s.prune_observations(u64::MAX, 0, NOW).unwrap(), 0);
}

#[test]
fn times_compare_as_instants_not_strings() {
    let mut s = Store::open_in_memory().unwrap();
    s.insert_run(&super::meta("r", "2026-01-01T00:00:00Z"))
        .unwrap();
    s.write(&[
        // As strings `…00.500Z` < `…00Z`; as instants it is the newer one.
        Write::Observation(obs("r", "later", "2026-01-10T00:00:00.500Z")),
        Write::Observation(obs("r", "earlier", "2026-01-10T00:00:00Z")),
        // 1 ms before the 1-day boundary of the `now` below, and exactly on it via an offset.
        Write::Observation(obs("r", "just-out", "2026-01-08T23:59:59.999Z")),
        Write::Observation(obs("r", "on-edge", "2026-01-09T01:00:00+01:00")),
        // Not a time: counts as the oldest.
        Write::Observation(obs("r", "junk", "last tuesday")),
    ])
    .unwrap();
    let now = "2026-01-10T00:00:00.000000Z";
    assert_eq!(s.prune_observations(0, 1, now).unwrap(), 2);
    let left: Vec<String> = s
        .observations("r")
        .unwrap()
        .into_iter()
        .map(|o| o.key.task_id)
        .collect();
    assert_eq!(left, ["later", "earlier", "on-edge"]);
    // keep_last = 1 with a window that keeps nothing: the newest instant survives.
    assert_eq!(
        s.prune_observations(1, 0, "2027-01-01T00:00:00Z").unwrap(),
        2
    );
    let left: Vec<String> = s
        .observations("r")
        .unwrap()
        .into_iter()
        .map(|o| o.key.task_id)
        .collect();
    assert_eq!(left, ["later"]);
}

#[test]
fn an_unreadable_now_is_an_error_and_deletes_nothing() {
    let mut s = ten_days();
    assert!(matches!(
        s.prune_observations(0, 0, "tomorrow"),
        Err(StoreError::InvalidTime { what: "now", .. })
    ));
    assert_eq!(survivors(&s).len(), 10);
}
