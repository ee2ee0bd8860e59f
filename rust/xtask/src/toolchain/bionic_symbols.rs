//! The bionic symbols the Android libraries import: the project's own data, from which `toolchain/android.rs`
//! makes the stub libraries it links against and `verify/android.rs` checks every import.
//!
//! Each entry was checked against bionic's published symbol maps: `libc/libc.map.txt`, `libm/libm.map.txt` and
//! `libdl/libdl.map.txt` in AOSP's bionic source (platform/bionic, commit 731631f300090436d7f5df80d50b6275c8c60a93,
//! March 2025), which say for every symbol its library, its version node and, with `introduced=N`, the first API
//! level that has it; a symbol without one has been there since the first 64-bit release (API 21). A symbol the
//! library imports that is not listed here fails the link (the stubs lack it), so the table is also the check.
//! Add a symbol only after looking it up in those maps; `BIONIC_SRC=<bionic checkout> cargo test -p xtask --
//! --ignored bionic` compares every entry with them (for arm64 and x86_64).

/// One bionic function: where it lives and since when. (Every import so far is a function; a data symbol such as
/// `environ` would need its type in the stub too.)
#[derive(Clone, Copy, Debug)]
pub struct BionicSymbol {
    pub name: &'static str,
    /// `libc.so`, `libm.so` or `libdl.so`.
    pub library: &'static str,
    /// The version node the symbol is bound to (`LIBC`, `LIBC_N`, `LIBC_P`, ...).
    pub version: &'static str,
    /// The first Android API level whose bionic has it.
    pub api: u32,
}

/// The stub libraries made from the table; `liblog.so` has no entry (std names it, nothing of it is used).
pub const LIBRARIES: [&str; 4] = ["libc.so", "libm.so", "libdl.so", "liblog.so"];

const fn libc(name: &'static str) -> BionicSymbol {
    BionicSymbol { name, library: "libc.so", version: "LIBC", api: 21 }
}

const fn libm(name: &'static str) -> BionicSymbol {
    BionicSymbol { name, library: "libm.so", version: "LIBC", api: 21 }
}

const fn libdl(name: &'static str) -> BionicSymbol {
    BionicSymbol { name, library: "libdl.so", version: "LIBC", api: 21 }
}

/// Every bionic symbol the Android libraries import (both ABIs, release and debug builds: a debug build also
/// calls `fcntl`, `sinf` and `cosf`), sorted by library and name.
pub const SYMBOLS: &[BionicSymbol] = &[
    libc("__cxa_finalize"),
    libc("__errno"),
    libc("abort"),
    libc("calloc"),
    libc("clock_gettime"),
    libc("close"),
    libc("free"),
    libc("fcntl"),
    libc("getcwd"),
    libc("getenv"),
    BionicSymbol { name: "getrandom", library: "libc.so", version: "LIBC_P", api: 28 },
    libc("gettid"),
    libc("malloc"),
    libc("memcmp"),
    libc("memcpy"),
    libc("memmove"),
    libc("memset"),
    libc("open"),
    libc("poll"),
    libc("posix_memalign"),
    libc("pthread_getspecific"),
    libc("pthread_key_create"),
    libc("pthread_key_delete"),
    libc("pthread_setspecific"),
    libc("read"),
    libc("realloc"),
    libc("strerror_r"),
    libc("strlen"),
    libc("syscall"),
    libc("write"),
    libc("writev"),
    libm("atan2f"),
    libm("cosf"),
    libm("expf"),
    libm("sincosf"),
    libm("sinf"),
    libdl("dlsym"),
];

#[cfg(test)]
mod tests;
