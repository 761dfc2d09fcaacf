//! Errors of the API: a JSON body `{"error": message, "kind": kind}` with an
//! HTTP status, never a dropped connection.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use mill::analysis::AnalysisError;
use mill::database::DatabaseError;
use mill::probe::ProbeError;
use serde_json::json;
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
            ProbeError::Table(DatabaseError::Set(SetError::Missing { path, .. })) => ApiError {
                status: StatusCode::NOT_FOUND,
                kind: "missing-table",
                message: format!(
                    "this position needs the table {}, which is not in the server's tablebase \
                     directory (generate it with `solver nine generate`)",
                    path.file_name()
                        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
                ),
            },
            ProbeError::NoDirectory(_) => ApiError {
                status: StatusCode::NOT_FOUND,
                kind: "no-tables",
                message: "the server has no tablebase directory (run `solver nine generate`, \
                          then `solver serve --dir DIR`)"
                    .into(),
            },
            ProbeError::Table(other) => ApiError {
                status: StatusCode::INTERNAL_SERVER_ERROR,
                kind: "damaged-table",
                message: other.to_string(),
            },
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
