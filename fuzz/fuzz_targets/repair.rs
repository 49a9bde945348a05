//! Lenient repair: any text. It never panics, and what it returns is strict JSON (checked by
//! serde_json as an independent reader and by the core's own strict reader) that repairs to
//! itself with no change.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolsift_core::repair::{repair_json, RepairOptions};
use toolsift_core::strict_json::is_strict_json;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let options = RepairOptions { max_depth: 512 };
    let Ok(repaired) = repair_json(&text, &options) else {
        return;
    };
    assert!(
        is_strict_json(&repaired.text),
        "not strict: {:?}",
        repaired.text
    );
    if let Err(e) = serde_json::from_str::<serde_json::Value>(&repaired.text) {
        // serde_json stops at 128 levels and refuses numbers beyond f64 (`1e400`); RFC 8259
        // allows both, so those are the core reader's to judge.
        let why = e.to_string();
        assert!(
            why.contains("recursion limit") || why.contains("number out of range"),
            "{why}: {:?}",
            repaired.text
        );
    }
    let again = repair_json(&repaired.text, &options).expect("repaired text repairs");
    assert!(again.repairs.is_empty(), "{:?}", again.repairs);
    assert_eq!(again.text, repaired.text);
});
