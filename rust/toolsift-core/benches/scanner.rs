//! Scanner throughput on prose-heavy and JSON-heavy text.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use toolsift_core::scanner::{scan_json_spans, JsonScanner, ScanOptions};

fn prose_heavy(len: usize) -> String {
    let para = "The model thinks about the request, weighs the options and explains its plan \
                in plain words before it acts. Nothing here is JSON at all, just sentences.\n";
    let call = r#"TOOL_CALL: {"tool_name": "search", "parameters": {"q": "rust {json}"}}"#;
    let mut s = String::with_capacity(len + 256);
    while s.len() < len {
        for _ in 0..20 {
            s.push_str(para);
        }
        s.push_str(call);
        s.push('\n');
    }
    s
}

fn json_heavy(len: usize) -> String {
    let item = r#"{"id": 12345, "name": "widget \"x\"", "tags": ["a", "b", {"k": [1, 2.5, null]}], "ok": true},"#;
    let mut s = String::from("[");
    while s.len() < len {
        s.push_str(item);
    }
    s.push_str("{}]");
    s
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("scan_json_spans");
    for (name, text) in [
        ("prose", prose_heavy(1 << 20)),
        ("json", json_heavy(1 << 20)),
    ] {
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::new("one_shot", name), &text, |b, t| {
            b.iter(|| scan_json_spans(black_box(t.as_bytes()), &ScanOptions::default()).unwrap());
        });
        group.bench_with_input(BenchmarkId::new("chunks_of_4", name), &text, |b, t| {
            b.iter(|| {
                let mut s = JsonScanner::new(ScanOptions::default());
                let mut out = Vec::new();
                for chunk in black_box(t.as_bytes()).chunks(4) {
                    s.feed(chunk, &mut out).unwrap();
                }
                out.len()
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
