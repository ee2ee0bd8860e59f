//! Serving a web export on 127.0.0.1 and running it in headless Chromium (Debian's `chromium`), reading the page's
//! console from Chromium's log (`--enable-logging=stderr`, where each console message is a `CONSOLE` line).
//!
//! The server sends the cross-origin isolation headers (COOP/COEP) a threads build needs, so the same server works
//! for both kinds of template. Chromium runs in its own process group with a fresh profile, and the group is ended
//! when the sentinel line came or the time ran out.

use crate::process::Result;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Serves `dir` on a free port of 127.0.0.1 (for the rest of this process); returns the port.
pub fn serve(dir: &Path) -> Result<u16> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("cannot listen on 127.0.0.1: {e}"))?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    let dir = dir.to_path_buf();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let dir = dir.clone();
            std::thread::spawn(move || {
                let _ = answer(stream, &dir);
            });
        }
    });
    Ok(port)
}

/// Answers one request (GET or HEAD of a file in `dir`).
fn answer(mut stream: TcpStream, dir: &Path) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request = String::new();
    reader.read_line(&mut request)?;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
            break;
        }
    }
    let mut parts = request.split_whitespace();
    let method = parts.next().unwrap_or("");
    let raw = parts.next().unwrap_or("/").split(['?', '#']).next().unwrap_or("/");
    let name = if raw == "/" { "index.html" } else { raw.trim_start_matches('/') };
    let file: Option<PathBuf> = (!name.contains("..")).then(|| dir.join(name)).filter(|p| p.is_file());
    let (status, body, kind) = match file {
        Some(path) => ("200 OK", std::fs::read(&path)?, mime(&path)),
        None => ("404 Not Found", b"not found".to_vec(), "text/plain"),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCross-Origin-Opener-Policy: same-origin\r\n\
         Cross-Origin-Embedder-Policy: require-corp\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    if method != "HEAD" {
        stream.write_all(&body)?;
    }
    stream.flush()
}

fn mime(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html",
        "js" => "application/javascript",
        "wasm" => "application/wasm",
        "png" => "image/png",
        "svg" => "image/svg+xml",
        "json" => "application/json",
        _ => "application/octet-stream",
    }
}

/// Opens `page` of `dir` in headless Chromium and collects the console's messages until one contains `sentinel`
/// or `timeout` passes. Fails, with what came so far, at the timeout or after an abort or an uncaught exception.
/// Returns the messages.
pub fn run_page(dir: &Path, page: &str, sentinel: &str, timeout: Duration) -> Result<Vec<String>> {
    crate::toolchain::debian::ensure_host_programs("the browser test", &[("chromium", "chromium")])?;
    let port = serve(dir)?;
    let profile = crate::process::repo_root().join("target/web-test/chromium-profile");
    let _ = std::fs::remove_dir_all(&profile);
    let url = format!("http://127.0.0.1:{port}/{page}");
    println!("xtask: opening {url} in headless Chromium");
    let mut cmd = Command::new("chromium");
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-default-apps",
        "--disable-extensions",
        // WebGL 2 in software, for Godot's renderer.
        "--use-angle=swiftshader",
        "--enable-unsafe-swiftshader",
        "--enable-logging=stderr",
        "--v=0",
    ])
    .arg(format!("--user-data-dir={}", profile.display()))
    .arg(&url)
    .stdin(Stdio::null())
    .stdout(Stdio::null())
    .stderr(Stdio::piped());
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let mut child = cmd.spawn().map_err(|e| format!("cannot start chromium: {e}"))?;
    let pid = child.id();
    let stderr = child.stderr.take().ok_or("no stderr from chromium")?;
    let (send, lines) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stderr);
        let mut raw = Vec::new();
        loop {
            raw.clear();
            match reader.by_ref().take(1 << 20).read_until(b'\n', &mut raw) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if send.send(String::from_utf8_lossy(&raw).trim_end().to_string()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    let started = Instant::now();
    let mut console = Vec::new();
    let mut browser_log = Vec::new();
    let mut done = false;
    while started.elapsed() < timeout {
        match lines.recv_timeout(Duration::from_millis(200)) {
            Ok(line) => {
                if let Some(message) = console_message(&line) {
                    println!("  console: {message}");
                    done = message.contains(sentinel);
                    // The engine cannot go on after an abort or an uncaught exception: stop waiting.
                    let fatal = message.contains("Aborted(") || message.starts_with("Uncaught");
                    console.push(message);
                    if done || fatal {
                        break;
                    }
                } else {
                    browser_log.push(line);
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    // End Chromium's whole process group (the browser, its renderer and GPU processes).
    let _ = Command::new("kill").arg("--").arg(format!("-{pid}")).status();
    let _ = child.wait();
    let log = crate::process::repo_root().join("target/web-test/chromium.log");
    let _ = std::fs::write(&log, browser_log.join("\n"));
    if !done {
        let what = if started.elapsed() >= timeout {
            "timed out"
        } else if console.last().is_some_and(|m| m.contains("Aborted(") || m.starts_with("Uncaught")) {
            "failed"
        } else {
            "Chromium exited"
        };
        return Err(format!(
            "the page {what} after {:.0} s without printing {sentinel}; console:\n  {}\n(Chromium's log: {})",
            started.elapsed().as_secs_f64(),
            console.join("\n  "),
            log.display()
        ));
    }
    Ok(console)
}

/// The text of a console message in a line of Chromium's log:
/// `[...:INFO:CONSOLE(12)] "text", source: http://... (12)` (older) or `...:INFO:CONSOLE:12] "text", source: ...`.
fn console_message(line: &str) -> Option<String> {
    let at = line.find("CONSOLE")?;
    let rest = &line[at..];
    let start = rest.find("] \"")? + 3;
    let body = &rest[start..];
    let end = body.rfind("\", source:").unwrap_or(body.len());
    Some(body[..end].to_string())
}
