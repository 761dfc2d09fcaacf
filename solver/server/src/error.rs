//! Errors of the API: a JSON body `{"error": message, "kind": kind}` with an
//! HTTP status, never a dropped connection.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;
use std::path::Path;

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
