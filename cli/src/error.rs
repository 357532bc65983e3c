//! Errors the command line reports; every one exits with status 2.

use thiserror::Error;

use throng::io::PlanError;
use throng::map::MapError;

/// A failed command.
#[derive(Debug, Error)]
pub enum CliError {
    /// Bad map, scenario or units.
    #[error(transparent)]
    Map(#[from] MapError),
    /// Bad plan file.
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// Bad event script.
    #[error(transparent)]
    Events(#[from] throng::io::EventsError),
    /// The engine refused the instance or a setting.
    #[error(transparent)]
    Sim(#[from] throng::engine::SimError),
    /// A file could not be written.
    #[error("{path}: cannot write: {source}")]
    Write {
        /// File concerned.
        path: std::path::PathBuf,
        /// Underlying error.
        source: std::io::Error,
    },
    /// Bad command-line arguments.
    #[error("{0}")]
    Usage(String),
    /// Anything else, with its message.
    #[error("{0}")]
    Other(String),
}

/// Writes `text` to `path`, naming the file on failure.
pub fn write_file(path: &std::path::Path, text: impl AsRef<[u8]>) -> Result<(), CliError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| CliError::Write {
            path: path.to_path_buf(),
            source,
        })?;
    }
    std::fs::write(path, text).map_err(|source| CliError::Write {
        path: path.to_path_buf(),
        source,
    })
}
