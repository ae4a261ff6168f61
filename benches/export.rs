//! The printout of a full battle (the placement example): how long it takes
//! and how big it is. Figures are in the manual's speed chapter (docs/src/speed.md); `cargo bench --bench export`.

use criterion::{Criterion, criterion_group, criterion_main};
use muster::fog::battle::Battle;
use muster::fog::export::{Paper, table_pdf};
use muster::fog::ruleset::Ruleset;
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let mut battle = Battle::new(Ruleset::builtin());
    let script = std::fs::read_to_string("examples/scripts/placement.jsonl").unwrap();
    muster::fog::script::run(&mut battle, script.as_bytes(), std::io::sink()).unwrap();
    let bytes = table_pdf(&battle, Paper::A4, "2026-11-22");
    println!("PDF size: {} bytes", bytes.len());
    c.bench_function("export a full battle to PDF", |b| {
        b.iter(|| table_pdf(black_box(&battle), Paper::A4, "2026-11-22"))
    });
}

criterion_group!(export_benches, benches);
criterion_main!(export_benches);
