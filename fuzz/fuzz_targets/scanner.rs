//! The JSON scanner: any bytes, any chunking. It never panics, and the spans (and the error,
//! if any) of a chunked scan equal those of a one-shot scan.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolsift_core::scanner::{scan_json_spans, JsonScanner, ScanOptions};

fuzz_target!(|data: &[u8]| {
    let Some((&control, text)) = data.split_first() else {
        return;
    };
    let options = ScanOptions {
        single_quotes: control & 1 == 1,
        // A small limit now and then, so the depth error is reached too.
        max_depth: if control & 2 == 2 { 8 } else { 100_000 },
    };
    let whole = scan_json_spans(text, &options);
    // `feed_until_closed` stops right after the first outermost span, with the same spans.
    let mut first = JsonScanner::new(options);
    let mut early = Vec::new();
    match (&whole, first.feed_until_closed(text, &mut early)) {
        (Ok(result), Ok(taken)) => {
            let end = result
                .spans
                .iter()
                .find(|s| s.depth == 0)
                .map_or(text.len(), |s| s.end);
            assert_eq!(taken, end);
            let before: Vec<_> = result
                .spans
                .iter()
                .filter(|s| s.end <= end)
                .copied()
                .collect();
            assert_eq!(early, before);
        }
        (Err(e), Ok(taken)) => assert!(taken <= e.offset),
        (Err(a), Err(b)) => assert_eq!(a, &b),
        (Ok(_), Err(e)) => panic!("feed_until_closed failed where a full scan did not: {e:?}"),
    }
    let step = usize::from(control >> 2) + 1;
    let mut scanner = JsonScanner::new(options);
    let mut spans = Vec::new();
    let mut error = None;
    for piece in text.chunks(step) {
        if let Err(e) = scanner.feed(piece, &mut spans) {
            error = Some(e);
            break;
        }
    }
    match (whole, error) {
        (Ok(result), None) => {
            assert_eq!(result.spans, spans);
            assert_eq!(result.end, scanner.finish());
            for span in &spans {
                assert!(span.start < span.end && span.end <= text.len());
            }
        }
        (Err(a), Some(b)) => assert_eq!(a, b),
        (a, b) => panic!("one-shot {a:?} but chunked error {b:?}"),
    }
});
