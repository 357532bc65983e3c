//! Errors from reading maps, scenarios and building instances.

use std::path::PathBuf;
use thiserror::Error;

/// Anything wrong with a map, a scenario file or the units it describes.
/// Every variant names the file and, where there is one, the line and the unit.
#[derive(Debug, Error)]
pub enum MapError {
    /// The file could not be read.
    #[error("{path}: cannot read file: {source}")]
    Io {
        /// File that failed.
        path: PathBuf,
        /// Underlying error.
        source: std::io::Error,
    },
    /// The file's text does not follow the format.
    #[error("{path}:{line}: {message}")]
    Syntax {
        /// File with the error.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What was expected and what was found.
        message: String,
    },
    /// One unit of a scenario cannot be used.
    #[error("{path}:{line}: unit {unit}: {message}")]
    Unit {
        /// Scenario file.
        path: PathBuf,
        /// 1-based line of the unit's row (0 when generated).
        line: usize,
        /// 0-based unit id.
        unit: usize,
        /// What is wrong.
        message: String,
    },
    /// More units asked for than the scenario holds, or another whole-file problem.
    #[error("{path}: {message}")]
    File {
        /// File concerned.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A bad argument (generator spec, sizes).
    #[error("{0}")]
    Invalid(String),
}

impl MapError {
    pub(crate) fn syntax(path: &std::path::Path, line: usize, message: impl Into<String>) -> Self {
        MapError::Syntax {
            path: path.to_path_buf(),
            line,
            message: message.into(),
        }
    }
}
