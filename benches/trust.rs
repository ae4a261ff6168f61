//! What trust costs (`cargo bench --bench trust`; figures in the manual's speed chapter):
//! one passphrase guess at Argon2id's cost, which is what an offline
//! attacker pays per guess; the dearest unlock a file's lock may ask of the
//! laptop under the cap (goal: under 1 s and 256 MiB); and saving and reopening a deployed battle, which
//! replays every entry and checks the chain.

use criterion::{Criterion, criterion_group, criterion_main};
use muster::core::intel::Lock;
use muster::fog::files::{battle_from_json, battle_to_json};
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let (lock, _) = Lock::create("walnut osprey bastion cider quarry fern", &[]).unwrap();
    let mut group = c.benchmark_group("trust");
    group.sample_size(10);
    group.bench_function("one passphrase guess (Argon2id, 64 MiB, 3 passes)", |b| {
        b.iter(|| lock.unlock(black_box("a wrong guess")).is_err())
    });
    // The largest a file may ask: most work (128 MiB x 4), most memory
    // (160 MiB x 3). A larger one is refused when the file opens.
    for (memory_kib, passes) in [(128 * 1024, 4), (160 * 1024, 3)] {
        let dear = Lock {
            memory_kib,
            passes,
            ..lock.clone()
        };
        dear.well_formed().expect("within the cap");
        group.bench_function(
            format!(
                "the dearest unlock a file may ask ({} MiB, {passes} passes)",
                memory_kib / 1024
            ),
            |b| b.iter(|| dear.unlock(black_box("a wrong guess")).is_err()),
        );
    }
    group.finish();

    let battle = muster::fog::examples::deployed_battle();
    let text = battle_to_json(&battle);
    println!(
        "deployed battle: {} log entries, {} bytes",
        battle.log().len(),
        text.len()
    );
    c.bench_function("save a deployed battle to JSON", |b| {
        b.iter(|| battle_to_json(black_box(&battle)))
    });
    c.bench_function("open a deployed battle (parse, chain, replay)", |b| {
        b.iter(|| battle_from_json(black_box(&text)).unwrap())
    });
}

criterion_group!(trust_benches, benches);
criterion_main!(trust_benches);
