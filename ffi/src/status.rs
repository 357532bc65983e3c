//! What every call returns, and the message of the last failure on the
//! calling thread (`throng_last_error`), as SQLite and libgit2 do.

use std::cell::RefCell;
use std::ffi::{c_char, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

use throng::engine::SimError;
use throng::map::MapError;

/// The outcome of a call. Every failure also sets the thread's message
/// (see [`throng_last_error`]).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThrongStatus {
    /// Done.
    Ok = 0,
    /// A pointer the call needs was null.
    NullPointer = 1,
    /// A setting, size or rectangle out of its range, or a call the world
    /// refuses (an empty group, a body that does not fit).
    InvalidArgument = 2,
    /// A cell outside the map.
    OffMap = 3,
    /// A cell that is a wall of the map.
    Wall = 4,
    /// The unit id names no living unit (despawned, or never spawned here).
    StaleUnit = 5,
    /// More living units than the world was made for (`max_units`), or no
    /// room left in the reservation table for a unit of this kind.
    TooManyUnits = 6,
    /// The map file could not be read or parsed.
    MapFile = 7,
    /// The caller's buffer is too small: the length needed is reported.
    BufferTooSmall = 8,
    /// An internal error (a bug in Throng). The world it happened in
    /// refuses every later call but `throng_world_free`.
    Internal = 9,
    /// A file could not be created or written (a recording).
    Io = 10,
}

/// A failed call: its status and what to tell the caller.
#[derive(Debug)]
pub(crate) struct Failure {
    pub status: ThrongStatus,
    pub message: String,
}

impl Failure {
    pub fn new(status: ThrongStatus, message: impl Into<String>) -> Self {
        Failure {
            status,
            message: message.into(),
        }
    }

    pub fn null(what: &str) -> Self {
        Failure::new(ThrongStatus::NullPointer, format!("{what} is null"))
    }
}

impl From<SimError> for Failure {
    fn from(e: SimError) -> Self {
        let status = match &e {
            SimError::StaleUnit(_) => ThrongStatus::StaleUnit,
            SimError::OffMap { .. } => ThrongStatus::OffMap,
            SimError::Wall { .. } => ThrongStatus::Wall,
            SimError::TooManyUnits { .. } | SimError::TableFull { .. } => {
                ThrongStatus::TooManyUnits
            }
            _ => ThrongStatus::InvalidArgument,
        };
        Failure::new(status, e.to_string())
    }
}

impl From<MapError> for Failure {
    fn from(e: MapError) -> Self {
        Failure::new(ThrongStatus::MapFile, e.to_string())
    }
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Records `message` as the calling thread's last error.
pub(crate) fn set_last_error(message: &str) {
    // A message with a NUL inside is cut there rather than lost.
    let text = message.split('\0').next().unwrap_or_default();
    let c = CString::new(text).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = c);
}

/// Runs `call`, turning its failure, or a panic inside it, into a status
/// and the thread's message. `on_panic` runs after a panic was caught.
pub(crate) fn guarded(
    call: impl FnOnce() -> Result<(), Failure>,
    on_panic: impl FnOnce(),
) -> ThrongStatus {
    match catch_unwind(AssertUnwindSafe(call)) {
        Ok(Ok(())) => ThrongStatus::Ok,
        Ok(Err(f)) => {
            set_last_error(&f.message);
            f.status
        }
        Err(payload) => {
            on_panic();
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            set_last_error(&format!("internal error in Throng: {what}"));
            ThrongStatus::Internal
        }
    }
}

/// The message of the last failed call on the calling thread (empty if
/// none failed yet). Valid until the next failing call on this thread;
/// copy it to keep it.
#[no_mangle]
pub extern "C" fn throng_last_error() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

/// Throng's version, as "MAJOR.MINOR.PATCH" (a static string).
#[no_mangle]
pub extern "C" fn throng_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    fn last() -> String {
        // SAFETY: a NUL-terminated string the thread owns.
        unsafe { CStr::from_ptr(throng_last_error()) }
            .to_string_lossy()
            .into_owned()
    }

    #[test]
    fn a_failure_sets_the_status_and_the_message() {
        let s = guarded(
            || Err(Failure::new(ThrongStatus::OffMap, "goal (9, 9) is outside")),
            || unreachable!(),
        );
        assert_eq!(s, ThrongStatus::OffMap);
        assert_eq!(last(), "goal (9, 9) is outside");
        // A message with a NUL inside is cut there.
        set_last_error("before\0after");
        assert_eq!(last(), "before");
    }

    #[test]
    fn a_panic_is_caught_and_reported_as_internal() {
        let mut told = false;
        let s = guarded(|| panic!("boom {}", 7), || told = true);
        assert_eq!(s, ThrongStatus::Internal);
        assert!(told);
        assert_eq!(last(), "internal error in Throng: boom 7");
    }
}
