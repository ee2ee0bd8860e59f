//! A Godot web export template with GDExtension support, built from Debian's `godot` source package of the same
//! version as the Godot the tests run in, with sid's emscripten ([`super::emscripten_sid`]).
//!
//! Debian repacks Godot's source (`+ds`) without the libraries Debian ships on its own; a web build compiles the
//! few it needs from source, so they come from Debian's source packages of each library: zlib, zstd, libpng and
//! mbedTLS (the last only for the core's hashes and AES). Brotli is switched off (`brotli=no`) and so are the
//! built-in certificates (`builtin_certs=no`: no TLS in this template). Godot keeps two small files of its own
//! beside mbedTLS (a configuration and a `zeroize`); they are written here.
//!
//! The build is trimmed to what a 2D scene with a script needs: `template_release`, `threads=no` (or `yes` for
//! the threads variant), `disable_3d=yes`, only the `gdscript` and `godot_physics_2d` modules, no LTO. The zip lands in
//! `~/.cache/reach2d/web-template/<godot>-emscripten-<version>/` with a `build-info.txt` (library versions, build
//! time), outside the repository, and is rebuilt only when missing.

use crate::process::{Result, write_file};
use crate::toolchain::debian::PrivateApt;
use crate::toolchain::emscripten_sid::{self, Emscripten};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// What scons writes (`target=template_release dlink_enabled=yes`, without or with threads).
pub fn template_name(threads: bool) -> &'static str {
    if threads {
        "godot.web.template_release.wasm32.dlink.zip"
    } else {
        "godot.web.template_release.wasm32.nothreads.dlink.zip"
    }
}

/// The scons arguments (besides `-j` and `threads=`).
const SCONS_ARGS: [&str; 12] = [
    "platform=web",
    "target=template_release",
    "dlink_enabled=yes",
    "disable_3d=yes",
    "modules_enabled_by_default=no",
    "module_gdscript_enabled=yes",
    "module_godot_physics_2d_enabled=yes",
    "brotli=no",
    "builtin_certs=no",
    "lto=none",
    "debug_symbols=no",
    "use_closure_compiler=no",
];

/// The cached template for `godot_version` (as `godot --version` prints it), without or with `threads`, if one
/// was built (with any emscripten: the newest folder wins).
pub fn cached(godot_version: &str, threads: bool) -> Result<Option<PathBuf>> {
    let prefix = format!("{}-emscripten-", upstream_version(godot_version)?);
    let Ok(entries) = fs::read_dir(cache_root()?) else { return Ok(None) };
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .map(|e| e.path().join(template_name(threads)))
        .filter(|zip| zip.is_file())
        .collect();
    found.sort();
    Ok(found.pop())
}

/// The template for `godot_version`, without or with `threads`: the cached one, or one built now with sid's
/// emscripten (fetched on first use).
pub fn ensure(godot_version: &str, threads: bool) -> Result<PathBuf> {
    if let Some(zip) = cached(godot_version, threads)? {
        return Ok(zip);
    }
    let version = upstream_version(godot_version)?;
    let em = Emscripten::ensure()?;
    let dir = cache_root()?.join(format!("{version}-emscripten-{}", em.version()?));
    let zip = dir.join(template_name(threads));
    crate::toolchain::debian::ensure_host_programs("building Godot's web template", &[("scons", "scons")])?;
    println!("xtask: no web export template in {}: building one from Debian's godot {version} source", dir.display());
    println!("xtask: (this takes long on two cores; it is done once per Godot and emscripten version)");
    let apt = emscripten_sid::sid_apt()?;
    apt.update(false)?;
    let work = emscripten_sid::folder().join("template-build");
    let (source, godot_package) = unpack_source(&apt, "godot", &format!("{version}+"), &work.join("godot"))?;
    let mut info = vec![format!("godot source: {godot_package}"), format!("emscripten: {}", em.version()?)];
    info.extend(add_thirdparty(&apt, &work, &source)?);
    let started = Instant::now();
    let mut scons = Command::new("scons");
    em.configure(&mut scons)?;
    let jobs = std::env::var("REACH2D_TEMPLATE_JOBS").unwrap_or_else(|_| "2".into());
    let threads_arg = if threads { "threads=yes" } else { "threads=no" };
    crate::process::run(scons.current_dir(&source).arg(format!("-j{jobs}")).arg(threads_arg).args(SCONS_ARGS))?;
    let seconds = started.elapsed().as_secs();
    let built = source.join("bin").join(template_name(threads));
    fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let tmp = dir.join(".incoming.zip");
    fs::copy(&built, &tmp).map_err(|e| format!("cannot copy {}: {e}", built.display()))?;
    info.push(format!("scons: {threads_arg} {} -j{jobs}", SCONS_ARGS.join(" ")));
    info.push(format!("build time: {seconds} s"));
    let info_file = dir.join(template_name(threads).replace(".zip", ".build-info.txt"));
    write_file(&info_file, &(info.join("\n") + "\n"))?;
    fs::rename(&tmp, &zip).map_err(|e| format!("cannot place {}: {e}", zip.display()))?;
    println!("xtask: built the web template in {seconds} s: {}", zip.display());
    Ok(zip)
}

/// `~/.cache/reach2d/web-template` (or under `$XDG_CACHE_HOME`).
fn cache_root() -> Result<PathBuf> {
    let base = match std::env::var_os("XDG_CACHE_HOME") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(std::env::var_os("HOME").ok_or("HOME is not set")?).join(".cache"),
    };
    Ok(base.join("reach2d/web-template"))
}

/// `4.6.3` from `4.6.3.stable.debian` (or `4.6.stable...` as `4.6`).
fn upstream_version(printed: &str) -> Result<String> {
    let numbers: Vec<&str> = printed.split('.').take_while(|p| p.chars().all(|c| c.is_ascii_digit())).collect();
    if numbers.len() < 2 {
        return Err(format!("cannot read a Godot version from `{printed}`"));
    }
    Ok(numbers.join("."))
}

/// Downloads the newest source of `package` whose version starts with `prefix` (any when empty) and unpacks its
/// upstream tarball into `into` (replaced); returns the unpacked folder and `package version`.
fn unpack_source(apt: &PrivateApt, package: &str, prefix: &str, into: &Path) -> Result<(PathBuf, String)> {
    let download = into.with_extension("download");
    let _ = fs::remove_dir_all(&download);
    let _ = fs::remove_dir_all(into);
    fs::create_dir_all(&download).map_err(|e| format!("cannot create {}: {e}", download.display()))?;
    fs::create_dir_all(into).map_err(|e| format!("cannot create {}: {e}", into.display()))?;
    let versions: Vec<String> = source_versions(apt, package)?.into_iter().filter(|v| v.starts_with(prefix)).collect();
    for version in &versions {
        // A source package's files are fetched one by one: a revision whose Debian part is gone from the archive
        // may still bring the upstream tarball, which is all that is needed.
        let _ = apt
            .command("apt-get")
            .current_dir(&download)
            .args(["-qq", "source", "--download-only"])
            .arg(format!("{package}={version}"))
            .output();
        let upstream = version.split_once(':').map_or(version.as_str(), |(_, v)| v);
        let upstream = upstream.rsplit_once('-').map_or(upstream, |(u, _)| u);
        let orig =
            fs::read_dir(&download).map_err(|e| e.to_string())?.flatten().map(|e| e.path()).find(|p| {
                p.file_name().is_some_and(|n| n.to_string_lossy().contains(&format!("_{upstream}.orig.tar")))
            });
        if let Some(orig) = orig {
            crate::process::run(Command::new("tar").arg("xf").arg(&orig).arg("-C").arg(into))?;
            let top: Vec<PathBuf> =
                fs::read_dir(into).map_err(|e| e.to_string())?.flatten().map(|e| e.path()).collect();
            let [dir] = top.as_slice() else {
                return Err(format!("{} did not unpack into one folder", orig.display()));
            };
            let _ = fs::remove_dir_all(&download);
            return Ok((dir.clone(), format!("{package} {version}")));
        }
    }
    Err(format!(
        "could not download the source of Debian's {package} {prefix}* (versions listed: {})",
        versions.join(", ")
    ))
}

/// The source versions the private apt lists for `package`, newest first.
fn source_versions(apt: &PrivateApt, package: &str) -> Result<Vec<String>> {
    let text = crate::process::output(apt.command("apt-cache").args(["showsrc", package]))?;
    let mut versions: Vec<String> =
        text.lines().filter_map(|l| l.strip_prefix("Version: ")).map(|v| v.trim().to_string()).collect();
    versions.dedup();
    versions.sort_by(|a, b| {
        let newer = Command::new("dpkg").args(["--compare-versions", a, "gt", b]).status().is_ok_and(|s| s.success());
        if newer { std::cmp::Ordering::Less } else { std::cmp::Ordering::Greater }
    });
    Ok(versions)
}

/// Fills Godot's `thirdparty/` with the libraries Debian's repack left out; returns one line per library used.
fn add_thirdparty(apt: &PrivateApt, work: &Path, godot: &Path) -> Result<Vec<String>> {
    let third = godot.join("thirdparty");
    let mut used = Vec::new();
    let copy_files = |from: &Path, to: &Path, keep: &dyn Fn(&str) -> bool| -> Result {
        fs::create_dir_all(to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
        for entry in fs::read_dir(from).map_err(|e| format!("cannot read {}: {e}", from.display()))?.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.path().is_file() && keep(&name) {
                fs::copy(entry.path(), to.join(&name)).map_err(|e| format!("cannot copy {name}: {e}"))?;
            }
        }
        Ok(())
    };
    let c_or_h = |n: &str| n.ends_with(".c") || n.ends_with(".h");

    let (zlib, what) = unpack_source(apt, "zlib", "", &work.join("zlib"))?;
    copy_files(&zlib, &third.join("zlib"), &c_or_h)?;
    used.push(what);

    let (zstd, what) = unpack_source(apt, "libzstd", "", &work.join("zstd"))?;
    crate::process::copy_dir(&zstd.join("lib"), &third.join("zstd"))?;
    used.push(what);

    let (png, what) = unpack_source(apt, "libpng1.6", "", &work.join("libpng"))?;
    copy_files(&png, &third.join("libpng"), &c_or_h)?;
    // The default configuration, as upstream ships it for builds without its configure step.
    fs::copy(png.join("scripts/pnglibconf.h.prebuilt"), third.join("libpng/pnglibconf.h"))
        .map_err(|e| format!("libpng: {e}"))?;
    used.push(what);

    let (tls, what) = unpack_source(apt, "mbedtls", "", &work.join("mbedtls"))?;
    let include = third.join("mbedtls/include");
    crate::process::copy_dir(&tls.join("include/mbedtls"), &include.join("mbedtls"))?;
    crate::process::copy_dir(&tls.join("include/psa"), &include.join("psa"))?;
    copy_files(&tls.join("library"), &third.join("mbedtls/library"), &c_or_h)?;
    write_file(&include.join("godot_core_mbedtls_config.h"), MBEDTLS_CORE_CONFIG)?;
    write_file(&third.join("mbedtls/library/godot_core_mbedtls_platform.c"), MBEDTLS_ZEROIZE)?;
    used.push(what);

    // scons lists the bundle as an input even when `builtin_certs=no` leaves it unused.
    fs::create_dir_all(third.join("certs")).map_err(|e| e.to_string())?;
    write_file(&third.join("certs/ca-bundle.crt"), "")?;
    Ok(used)
}

/// The mbedTLS configuration Godot's core (`core/crypto`) compiles its few mbedTLS files with.
const MBEDTLS_CORE_CONFIG: &str =
    "/* mbedTLS for Godot's core crypto only: MD5, SHA-1, SHA-256, AES, Base64, CTR-DRBG. */
#ifndef GODOT_CORE_MBEDTLS_CONFIG_H
#define GODOT_CORE_MBEDTLS_CONFIG_H
#include <limits.h>
#define MBEDTLS_CIPHER_MODE_CBC
#define MBEDTLS_CIPHER_MODE_CFB
#define MBEDTLS_CIPHER_MODE_CTR
#define MBEDTLS_CIPHER_MODE_OFB
#define MBEDTLS_CIPHER_MODE_XTS
#define MBEDTLS_AES_C
#define MBEDTLS_BASE64_C
#define MBEDTLS_CTR_DRBG_C
#define MBEDTLS_ENTROPY_C
#define MBEDTLS_MD5_C
#define MBEDTLS_SHA1_C
#define MBEDTLS_SHA256_C
#define MBEDTLS_PLATFORM_ZEROIZE_ALT
/* The core seeds CTR-DRBG from its own source (OS::get_entropy): no platform or hardware entropy. */
#define MBEDTLS_NO_PLATFORM_ENTROPY
#endif
";

/// `mbedtls_platform_zeroize` for `MBEDTLS_PLATFORM_ZEROIZE_ALT`: a memset the compiler cannot drop.
const MBEDTLS_ZEROIZE: &str = "#include MBEDTLS_CONFIG_FILE
#include <stddef.h>
#include <string.h>
static void *(*const volatile zeroize_memset)(void *, int, size_t) = memset;
void mbedtls_platform_zeroize(void *buf, size_t len) { zeroize_memset(buf, 0, len); }
";
