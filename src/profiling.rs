//! Tracy instrumentation through crate-local macros that expand to nothing
//! unless the `profiling` feature is on, so a normal build carries no profiling
//! code and needs no Tracy server.

/// Starts the Tracy client once (no-op without the `profiling` feature).
pub fn init() {
    #[cfg(feature = "profiling")]
    {
        static CLIENT: std::sync::OnceLock<tracy_client::Client> = std::sync::OnceLock::new();
        CLIENT.get_or_init(tracy_client::Client::start);
    }
}

/// Names the calling thread in Tracy (no-op without the feature).
pub fn name_thread(_name: &str) {
    #[cfg(feature = "profiling")]
    if let Some(client) = tracy_client::Client::running() {
        client.set_thread_name(_name);
    }
}

/// Opens a Tracy zone that lasts until the end of the enclosing block.
#[doc(hidden)]
#[macro_export]
macro_rules! profile_zone {
    ($name:literal) => {
        #[cfg(feature = "profiling")]
        let _tracy_zone =
            tracy_client::Client::running().map(|c| c.span(tracy_client::span_location!($name), 0));
    };
}

/// Marks the end of a frame (one tick).
#[doc(hidden)]
#[macro_export]
macro_rules! profile_frame {
    () => {
        #[cfg(feature = "profiling")]
        if let Some(c) = tracy_client::Client::running() {
            c.frame_mark();
        }
    };
}

/// Plots a number in Tracy.
#[doc(hidden)]
#[macro_export]
macro_rules! profile_plot {
    ($name:literal, $value:expr) => {
        #[cfg(feature = "profiling")]
        if let Some(c) = tracy_client::Client::running() {
            c.plot(tracy_client::plot_name!($name), $value as f64);
        }
        #[cfg(not(feature = "profiling"))]
        let _ = &$value;
    };
}
