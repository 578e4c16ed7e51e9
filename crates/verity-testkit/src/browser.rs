//! A headless Chromium for end-to-end tests of the pages verity writes (`verity report --format
//! html`) and serves (`verity view`), driven over the DevTools protocol by `chromiumoxide`.
//!
//! The browser is Debian's `chromium` (`.ci/run` installs it), or the program named by
//! `VERITY_CHROMIUM`. It starts with the flags a closed machine needs: `--headless
//! --no-sandbox --disable-gpu --disable-background-networking` (and the other background
//! services off, so Chromium never tries to reach Google's hosts) and a fresh profile
//! directory. Every page records what its console and runtime reported, so a test can assert
//! that a page rendered with no errors.
//!
//! ```no_run
//! # fn demo() -> Result<(), String> {
//! use verity_testkit::browser::Chromium;
//! let Some(chromium) = Chromium::find() else { return Ok(()) }; // or fail under CI
//! let browser = chromium.launch()?;
//! let page = browser.open("file:///tmp/report.html")?;
//! page.wait_for("table")?;
//! let rows = page.eval("document.querySelectorAll('tbody tr').length")?;
//! assert!(page.errors().is_empty(), "{:?}", page.errors());
//! page.screenshot(std::path::Path::new("report.png"))?;
//! # let _ = rows; Ok(()) }
//! ```

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chromiumoxide::browser::{Browser as Chrome, BrowserConfig};
use chromiumoxide::cdp::browser_protocol::log::{
    EnableParams as LogEnable, EventEntryAdded, LogEntryLevel,
};
use chromiumoxide::cdp::js_protocol::runtime::{
    ConsoleApiCalledType, EventConsoleApiCalled, EventExceptionThrown,
};
use chromiumoxide::page::{Page as Tab, ScreenshotParams};
use futures::StreamExt;

/// The flags every launch passes (besides headless mode and `--no-sandbox`): no GPU, and no
/// background traffic on a closed network.
const FLAGS: [&str; 7] = [
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
    "--hide-scrollbars",
];

/// How long a start, a navigation or a wait may take before the test gets an error.
const TIMEOUT: Duration = Duration::from_secs(30);

/// A Chromium program found on this machine.
#[derive(Debug, Clone)]
pub struct Chromium {
    path: PathBuf,
}

impl Chromium {
    /// `VERITY_CHROMIUM` when set, else `chromium` (or `chromium-browser`) on `PATH`, else
    /// `/usr/bin/chromium`; `None` when none exists.
    pub fn find() -> Option<Chromium> {
        if let Some(p) = std::env::var_os("VERITY_CHROMIUM").filter(|p| !p.is_empty()) {
            return Some(Chromium { path: p.into() });
        }
        let on_path = std::env::var_os("PATH").into_iter().flat_map(|paths| {
            std::env::split_paths(&paths)
                .flat_map(|dir| [dir.join("chromium"), dir.join("chromium-browser")])
                .collect::<Vec<_>>()
        });
        on_path
            .chain([PathBuf::from("/usr/bin/chromium")])
            .find(|p| p.is_file())
            .map(|path| Chromium { path })
    }

    /// The program's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Starts a headless browser with a fresh profile (removed when the [`Browser`] drops).
    pub fn launch(&self) -> Result<Browser, String> {
        let profile = tempfile::tempdir().map_err(|e| format!("profile directory: {e}"))?;
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|e| format!("runtime: {e}"))?;
        let config = BrowserConfig::builder()
            .chrome_executable(&self.path)
            .no_sandbox()
            .user_data_dir(profile.path())
            .window_size(1280, 900)
            .launch_timeout(TIMEOUT)
            .request_timeout(TIMEOUT)
            .args(FLAGS)
            .build()
            .map_err(|e| format!("chromium launch options: {e}"))?;
        let inner = rt.block_on(async {
            let (browser, mut handler) = Chrome::launch(config)
                .await
                .map_err(|e| format!("starting {}: {e}", self.path.display()))?;
            tokio::spawn(async move { while handler.next().await.is_some() {} });
            Ok::<_, String>(browser)
        })?;
        Ok(Browser {
            inner: Some(inner),
            rt,
            _profile: profile,
        })
    }
}

/// A running headless Chromium; closed when dropped.
pub struct Browser {
    inner: Option<Chrome>,
    rt: tokio::runtime::Runtime,
    _profile: tempfile::TempDir,
}

impl Drop for Browser {
    fn drop(&mut self) {
        if let Some(mut b) = self.inner.take() {
            self.rt.block_on(async move {
                let _ = b.close().await;
                let _ = b.wait().await;
            });
        }
    }
}

impl Browser {
    fn chrome(&self) -> Result<&Chrome, String> {
        self.inner
            .as_ref()
            .ok_or_else(|| "the browser was closed".to_string())
    }

    /// A new tab showing `url` once it has loaded, recording console errors, failed loads and
    /// uncaught exceptions from before the navigation on.
    pub fn open(&self, url: &str) -> Result<Page<'_>, String> {
        let chrome = self.chrome()?;
        let errors = Arc::new(Mutex::new(Vec::new()));
        let tab = self.rt.block_on(async {
            let tab = chrome
                .new_page("about:blank")
                .await
                .map_err(|e| format!("new tab: {e}"))?;
            tab.execute(LogEnable::default())
                .await
                .map_err(|e| format!("log events: {e}"))?;
            let mut thrown = tab
                .event_listener::<EventExceptionThrown>()
                .await
                .map_err(|e| format!("exception events: {e}"))?;
            let sink = Arc::clone(&errors);
            tokio::spawn(async move {
                while let Some(e) = thrown.next().await {
                    let d = &e.exception_details;
                    let what = d
                        .exception
                        .as_ref()
                        .and_then(|x| x.description.clone())
                        .unwrap_or_else(|| d.text.clone());
                    push(
                        &sink,
                        format!(
                            "uncaught exception at {}:{}: {what}",
                            d.line_number, d.column_number
                        ),
                    );
                }
            });
            let mut console = tab
                .event_listener::<EventConsoleApiCalled>()
                .await
                .map_err(|e| format!("console events: {e}"))?;
            let sink = Arc::clone(&errors);
            tokio::spawn(async move {
                while let Some(e) = console.next().await {
                    if e.r#type != ConsoleApiCalledType::Error {
                        continue;
                    }
                    let args: Vec<String> = e
                        .args
                        .iter()
                        .map(|a| match &a.value {
                            Some(v) => v.to_string(),
                            None => a.description.clone().unwrap_or_default(),
                        })
                        .collect();
                    push(&sink, format!("console.error: {}", args.join(" ")));
                }
            });
            let mut log = tab
                .event_listener::<EventEntryAdded>()
                .await
                .map_err(|e| format!("log events: {e}"))?;
            let sink = Arc::clone(&errors);
            tokio::spawn(async move {
                while let Some(e) = log.next().await {
                    if e.entry.level == LogEntryLevel::Error {
                        push(
                            &sink,
                            format!(
                                "log error ({:?}): {} {}",
                                e.entry.source,
                                e.entry.text,
                                e.entry.url.clone().unwrap_or_default()
                            ),
                        );
                    }
                }
            });
            tab.goto(url)
                .await
                .map_err(|e| format!("opening {url}: {e}"))?;
            Ok::<_, String>(tab)
        })?;
        Ok(Page {
            tab,
            errors,
            rt: &self.rt,
        })
    }
}

fn push(sink: &Mutex<Vec<String>>, line: String) {
    if let Ok(mut v) = sink.lock() {
        v.push(line);
    }
}

/// One tab of the browser.
pub struct Page<'b> {
    tab: Tab,
    errors: Arc<Mutex<Vec<String>>>,
    rt: &'b tokio::runtime::Runtime,
}

impl Page<'_> {
    /// Waits (up to 30 s) until an element matches the CSS `selector`.
    pub fn wait_for(&self, selector: &str) -> Result<(), String> {
        let start = Instant::now();
        self.rt.block_on(async {
            loop {
                match self.tab.find_element(selector).await {
                    Ok(_) => return Ok(()),
                    Err(e) if start.elapsed() > TIMEOUT => {
                        return Err(format!("waiting for `{selector}`: {e}"));
                    }
                    Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
                }
            }
        })
    }

    /// Evaluates a JavaScript expression (a promise is awaited) and returns its value as JSON
    /// (`null` for `undefined` or a value that has no JSON form).
    pub fn eval(&self, expression: &str) -> Result<serde_json::Value, String> {
        self.rt.block_on(async {
            let r = self
                .tab
                .evaluate(expression)
                .await
                .map_err(|e| format!("evaluating `{expression}`: {e}"))?;
            Ok(r.value().cloned().unwrap_or(serde_json::Value::Null))
        })
    }

    /// Waits for the first element matching `selector` and clicks it; `doing` names the
    /// action in an error.
    async fn clicked(
        &self,
        selector: &str,
        doing: &str,
    ) -> Result<chromiumoxide::element::Element, String> {
        let fail = |e: chromiumoxide::error::CdpError| format!("{doing} `{selector}`: {e}");
        let el = self.tab.find_element(selector).await.map_err(fail)?;
        el.click().await.map_err(fail)?;
        Ok(el)
    }

    /// Clicks the first element matching `selector`.
    pub fn click(&self, selector: &str) -> Result<(), String> {
        self.wait_for(selector)?;
        self.rt
            .block_on(async { self.clicked(selector, "clicking").await.map(|_| ()) })
    }

    /// Focuses the first element matching `selector` and types `text` into it.
    pub fn type_into(&self, selector: &str, text: &str) -> Result<(), String> {
        self.wait_for(selector)?;
        self.rt.block_on(async {
            let el = self.clicked(selector, "typing into").await?;
            el.type_str(text)
                .await
                .map(|_| ())
                .map_err(|e| format!("typing into `{selector}`: {e}"))
        })
    }

    /// Every console error, failed load and uncaught exception the page reported so far.
    pub fn errors(&self) -> Vec<String> {
        self.errors.lock().map(|v| v.clone()).unwrap_or_default()
    }

    /// Sets the page's viewport to `width` × `height` CSS pixels (headless Chromium's own is
    /// 800 × 600 whatever the window size), e.g. before a screenshot.
    pub fn set_viewport(&self, width: u32, height: u32) -> Result<(), String> {
        use chromiumoxide::cdp::browser_protocol::emulation::SetDeviceMetricsOverrideParams;
        self.rt.block_on(async {
            self.tab
                .execute(SetDeviceMetricsOverrideParams::new(
                    i64::from(width),
                    i64::from(height),
                    1.0,
                    false,
                ))
                .await
                .map(|_| ())
                .map_err(|e| format!("setting the viewport to {width}×{height}: {e}"))
        })
    }

    /// Emulates the reader's colour scheme (`prefers-color-scheme: dark` or `light`), as a
    /// system set to dark mode would.
    pub fn set_color_scheme(&self, dark: bool) -> Result<(), String> {
        use chromiumoxide::cdp::browser_protocol::emulation::{
            MediaFeature, SetEmulatedMediaParams,
        };
        let scheme = if dark { "dark" } else { "light" };
        let params = SetEmulatedMediaParams::builder()
            .features(vec![MediaFeature::new("prefers-color-scheme", scheme)])
            .build();
        self.rt.block_on(async {
            self.tab
                .execute(params)
                .await
                .map(|_| ())
                .map_err(|e| format!("emulating prefers-color-scheme: {scheme}: {e}"))
        })
    }

    /// Writes a PNG screenshot of the whole page to `path`.
    pub fn screenshot(&self, path: &Path) -> Result<(), String> {
        let png = self.rt.block_on(async {
            self.tab
                .screenshot(ScreenshotParams::builder().full_page(true).build())
                .await
                .map_err(|e| format!("screenshot: {e}"))
        })?;
        std::fs::write(path, png).map_err(|e| format!("writing {}: {e}", path.display()))
    }
}
