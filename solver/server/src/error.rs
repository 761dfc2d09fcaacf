//! Errors of the API: a JSON body `{"error": message, "kind": kind}` with an
//! HTTP status, never a dropped connection.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use mill::games::nine::files::DatabaseError;
use mill::probe::analysis::AnalysisError;
use mill::probe::nine::ProbeError;
use serde_json::json;
use std::path::Path;
use tablebase::format::FormatError;
use tablebase::set::SetError;

/// An API error: status, a machine-readable kind and a one-line message.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// HTTP status.
    pub status: StatusCode,
    /// `bad-request`, `missing-table`, `damaged-table`, `no-tables`,
    /// `busy`, `timeout`, `not-found`, `method-not-allowed`, `too-long`,
    /// `internal`.
    pub kind: &'static str,
    /// What went wrong, in one line.
    pub message: String,
}

impl ApiError {
    /// A 400: the request is wrong (bad or illegal position, bad parameter).
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            kind: "bad-request",
            message: message.into(),
        }
    }

    /// A 503: the server is busy with other searches.
    pub fn busy(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            kind: "busy",
            message: message.into(),
        }
    }

    /// A 500 `damaged-table`: a table failed its checks (named by its file
    /// name, never by the server's path).
    pub fn damaged(e: &DatabaseError) -> ApiError {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            kind: "damaged-table",
            message: table_message(e),
        }
    }

    /// This error with every mention of `dir` (as given and as the
    /// absolute path it resolves to) removed: a last guard that no message
    /// names where the server keeps its files.
    pub fn without_path(mut self, dir: &Path) -> ApiError {
        let mut spellings = vec![dir.to_path_buf()];
        if let Ok(full) = dir.canonicalize() {
            spellings.push(full);
        }
        for d in spellings {
            let d = d.to_string_lossy().trim_end_matches('/').to_string();
            if d.is_empty() {
                continue;
            }
            // A one-word relative name (`six`) is also a word of messages
            // (`solver six generate`, the label `six/flying/5-4`): only
            // paths with a `/` in them are replaced (the absolute spelling
            // always is).
            if d.contains('/') {
                self.message = self
                    .message
                    .replace(&format!("{d}/"), "")
                    .replace(&d, "the tablebase directory");
            }
        }
        self
    }

    /// A 500 with a message.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            kind: "internal",
            message: message.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = Json(json!({ "error": self.message, "kind": self.kind }));
        (self.status, body).into_response()
    }
}

impl From<ProbeError> for ApiError {
    fn from(e: ProbeError) -> ApiError {
        match e {
            ProbeError::Table(DatabaseError::Set(SetError::Missing { path, .. })) => {
                let name = file_name(&path);
                // The rule set is in the file's name (`nine-noflying-…`).
                let command = if name.starts_with("nine-noflying-") {
                    "solver nine generate --no-flying"
                } else {
                    "solver nine generate"
                };
                ApiError {
                    status: StatusCode::NOT_FOUND,
                    kind: "missing-table",
                    message: format!(
                        "this position needs the table {name}, which is not in the server's \
                         tablebase directory (generate it with `{command}`)"
                    ),
                }
            }
            ProbeError::NoDirectory(_) => ApiError {
                status: StatusCode::NOT_FOUND,
                kind: "no-tables",
                message: "the server has no tablebase directory (run `solver nine generate`, \
                          then `solver serve --dir DIR`)"
                    .into(),
            },
            ProbeError::Table(other) => ApiError::damaged(&other),
            // An illegal position, or a moving-phase question about a
            // placement position.
            other => ApiError::bad_request(other.to_string()),
        }
    }
}

impl From<AnalysisError> for ApiError {
    fn from(e: AnalysisError) -> ApiError {
        match e {
            AnalysisError::Probe(p) => p.into(),
            other => ApiError::internal(other.to_string()),
        }
    }
}

/// A file's name without its directory.
fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || "a tablebase file".to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// A table error in one line, naming files by their names only (the
/// library's messages start with the file's full path).
pub fn table_message(e: &DatabaseError) -> String {
    let format = |f: &FormatError| match f {
        FormatError::Io { path, source } => format!("{}: {source}", file_name(path)),
        FormatError::Damaged { path, what } => {
            format!("{}: damaged tablebase file: {what}", file_name(path))
        }
    };
    match e {
        DatabaseError::Format(f) | DatabaseError::Set(SetError::Format(f)) => format(f),
        DatabaseError::Set(SetError::UnknownFile(path)) => format!(
            "{}: unknown file in the tablebase directory",
            file_name(path)
        ),
        DatabaseError::Set(SetError::Mismatch {
            path,
            expected,
            found,
            ..
        }) => format!(
            "{}: holds `{found}` but its name says `{expected}`",
            file_name(path)
        ),
        DatabaseError::Set(SetError::WrongEntries { path, found }) => format!(
            "{}: holds {found:?} entries, the wrong kind for its table",
            file_name(path)
        ),
        DatabaseError::Set(SetError::Missing { path, .. }) => {
            format!("{}: missing", file_name(path))
        }
        DatabaseError::Set(SetError::Dir { source, .. }) => {
            format!("the tablebase directory: {source}")
        }
        other => other.to_string(),
    }
}
