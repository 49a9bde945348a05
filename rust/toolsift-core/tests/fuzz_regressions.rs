//! Inputs the fuzz targets (`fuzz/`, see FUZZING.md) stopped on, kept as tests. Each file under
//! `fuzz/regressions/<target>/` runs through the same checks as its target.

use std::path::Path;
use toolsift_core::repair::{repair_json, RepairOptions};
use toolsift_core::strict_json::is_strict_json;

fn inputs(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/regressions")
        .join(target);
    let mut found: Vec<_> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| {
                    (
                        e.file_name().to_string_lossy().into_owned(),
                        std::fs::read(e.path()).unwrap(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

#[test]
fn repair_regressions_give_strict_json_that_repairs_to_itself() {
    let cases = inputs("repair");
    assert!(!cases.is_empty(), "fuzz/regressions/repair holds the cases");
    for (name, data) in cases {
        let text = String::from_utf8_lossy(&data);
        let options = RepairOptions { max_depth: 512 };
        let Ok(repaired) = repair_json(&text, &options) else {
            continue;
        };
        assert!(
            is_strict_json(&repaired.text),
            "{name}: {:?}",
            repaired.text
        );
        let again = repair_json(&repaired.text, &options).unwrap();
        assert!(again.repairs.is_empty(), "{name}");
        assert_eq!(again.text, repaired.text, "{name}");
    }
}

/// The first input the repair target stopped on: `3333e333` is strict JSON (RFC 8259 sets no
/// range on numbers) that serde_json refuses as out of range. The harness, not the core, was
/// wrong; the Python side loads such a number as `inf`.
#[test]
fn a_number_beyond_f64_is_still_strict_json() {
    let repaired = repair_json(
        "{'a'\n[ 22\n\n\n3333e333\n\n333-\n\n",
        &RepairOptions::default(),
    )
    .unwrap();
    assert!(repaired.text.contains("3333e333"));
    assert!(is_strict_json(&repaired.text));
}
