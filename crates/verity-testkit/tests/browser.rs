//! The browser harness itself, on a page written here: it loads, evaluates, clicks, types,
//! records console errors and uncaught exceptions, and takes a screenshot.
#![cfg(feature = "browser")]

use verity_testkit::browser::Chromium;

fn chromium() -> Option<Chromium> {
    let found = Chromium::find();
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "chromium is missing (.ci/run installs Debian's chromium)"
        );
        eprintln!("skipping: no chromium on this machine (set VERITY_CHROMIUM)");
    }
    found
}

const PAGE: &str = r#"<!doctype html><html><head><meta charset="utf-8"><title>t</title></head>
<body><input id="q"><button id="b" onclick="document.getElementById('out').textContent =
document.getElementById('q').value.toUpperCase()">go</button><p id="out"></p>
<button id="boom" onclick="console.error('bad', 42)">err</button>
<button id="throw" onclick="setTimeout(() => { throw new Error('thrown here') })">throw</button>
</body></html>"#;

#[test]
fn drives_a_page_and_records_its_errors() {
    let Some(chromium) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("page.html");
    std::fs::write(&file, PAGE).unwrap();
    let browser = chromium.launch().unwrap();
    let page = browser.open(&format!("file://{}", file.display())).unwrap();
    page.wait_for("#b").unwrap();
    assert_eq!(page.eval("1 + 2").unwrap(), serde_json::json!(3));
    page.type_into("#q", "abc").unwrap();
    page.click("#b").unwrap();
    assert_eq!(
        page.eval("document.getElementById('out').textContent")
            .unwrap(),
        serde_json::json!("ABC")
    );
    assert!(page.errors().is_empty(), "{:?}", page.errors());
    page.click("#boom").unwrap();
    page.click("#throw").unwrap();
    // Events arrive asynchronously.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while page.errors().len() < 2 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let errors = page.errors();
    assert!(
        errors
            .iter()
            .any(|e| e.contains("console.error") && e.contains("bad")),
        "{errors:?}"
    );
    assert!(
        errors.iter().any(|e| e.contains("thrown here")),
        "{errors:?}"
    );
    let png = dir.path().join("shot.png");
    page.screenshot(&png).unwrap();
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
}
