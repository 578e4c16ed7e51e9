use std::time::Instant;
use verity_local::loaded::Loaded;
use verity_local::model::KvCache;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let prompt = std::env::args().nth(2).unwrap_or("Write a Python function that returns the sum of a list.".into());
    let l = Loaded::load(std::path::Path::new(&path), None).unwrap();
    println!("load {:?} weights {} MB", l.load_time, l.model.size_bytes() / 1_000_000);
    let ids = l.chat.prompt(&l.tokenizer, &[("user".into(), prompt)]).unwrap();
    println!("prompt {} tokens: {:?}", ids.len(), &ids[..ids.len().min(12)]);
    let mut cache = KvCache::new(&l.model.cfg);
    let mut logits = vec![];
    let mut pf = std::time::Duration::ZERO;
    for _ in 0..4 {
        cache = KvCache::new(&l.model.cfg);
        let t = Instant::now();
        logits = l.model.forward(&mut [&mut cache], &[&ids]);
        pf = t.elapsed();
        println!("prefill {:?}", pf);
    }
    let argmax = |v: &[f32]| v.iter().enumerate().fold((0, f32::NEG_INFINITY), |a, (i, &x)| if x > a.1 { (i, x) } else { a }).0 as u32;
    let mut next = argmax(&logits[0]);
    let mut out = vec![];
    let t = Instant::now();
    for _ in 0..64 {
        if l.tokenizer.stop_ids.contains(&next) { break; }
        out.push(next);
        let lg = l.model.forward(&mut [&mut cache], &[&[next]]);
        next = argmax(&lg[0]);
    }
    let dc = t.elapsed();
    println!("prefill {:?} ({:.1} tok/s), decode {} tok {:?} ({:.1} tok/s)", pf, ids.len() as f64 / pf.as_secs_f64(), out.len(), dc, out.len() as f64 / dc.as_secs_f64());
    println!("---\n{}\n---", l.tokenizer.decode(&out));
}
