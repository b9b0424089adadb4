//! `GET /embed/{card_id}/?embed_mode=postmessage&parent_origin=<origin>`:
//! the postMessage shell. The page holds no data: its one script
//! (`GET /zdr-shell/v1/shell.js`) imports the widget's engine module, and
//! only that, from the address the host is configured with (--engine-url,
//! written into the page as `data-engine`), tells the parent window it is
//! ready, receives the card's data by postMessage and draws them in the
//! browser. The data never reach this host.

use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::header::{CONTENT_TYPE, HOST};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};

use crate::ancestors;
use crate::config::EmbedConfig;
use crate::embed::{card_id_or_empty, dark_mode, valid_card_id};
use crate::error::{quoted, AppError};
use crate::html::shell_page;
use crate::origin;
use crate::security::Csp;

/// Where the shell's bootstrap script is served; versioned so that a
/// changed script can live beside the old one.
pub const SCRIPT_PATH: &str = "/zdr-shell/v1/shell.js";

/// The bootstrap: a real file, so that it can be read and linted as one.
const SCRIPT: &str = include_str!("../assets/shell.js");

/// The one embed mode a GET serves.
const POSTMESSAGE: &str = "postmessage";

/// What the shell page is told, checked.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Shell {
    parent_origin: String,
    dark: Option<bool>,
    auto_height: bool,
}

/// Reads the query; unknown parameters are ignored and a repeated one
/// counts with its last value, as for the form mode's `dark_mode`.
pub(crate) fn read_query(query: Option<&str>) -> Result<Shell, AppError> {
    let mut embed_mode = None;
    let mut parent_origin = None;
    let mut height = None;
    for (name, value) in form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
        match name.as_ref() {
            "embed_mode" => embed_mode = Some(value),
            "parent_origin" => parent_origin = Some(value),
            "height" => height = Some(value),
            _ => {}
        }
    }
    match embed_mode.as_deref() {
        None => return Err(AppError::NoEmbedMode),
        Some(POSTMESSAGE) => {}
        Some(other) => return Err(AppError::EmbedMode(quoted(other))),
    }
    let parent_origin = parent_origin.ok_or(AppError::NoParentOrigin)?;
    origin::check(&parent_origin).map_err(|error| AppError::ParentOrigin {
        error,
        found: quoted(&parent_origin),
    })?;
    let dark = dark_mode(query)?;
    let auto_height = match height.as_deref() {
        None => false,
        Some("auto") => true,
        Some(other) => return Err(AppError::Height(quoted(other))),
    };
    Ok(Shell {
        parent_origin: parent_origin.into_owned(),
        dark,
        auto_height,
    })
}

pub async fn page(
    State(config): State<Arc<EmbedConfig>>,
    card_id: Result<Path<String>, PathRejection>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let card_id = card_id_or_empty(card_id);
    if !valid_card_id(&card_id) {
        return Err(AppError::CardId);
    }
    let shell = read_query(query.as_deref())?;
    let listed = config
        .parent_origins
        .as_ref()
        .is_none_or(|list| list.allows(&shell.parent_origin));
    let own = headers.get(HOST).and_then(|v| v.to_str().ok());
    if !listed || !ancestors::allow(&config.frame_ancestors, &shell.parent_origin, own) {
        return Err(AppError::ParentNotAllowed(quoted(&shell.parent_origin)));
    }
    let page = shell_page(
        &shell.parent_origin,
        shell.dark,
        shell.auto_height,
        SCRIPT_PATH,
        &config.engine_url,
    );
    let style_hash = page.style_hash.clone();
    let mut response = page.into_response();
    // Only the one parent the shell talks to may frame it.
    response.extensions_mut().insert(Csp::Shell {
        style_hash,
        frame_ancestors: shell.parent_origin,
    });
    Ok(response)
}

/// `GET /zdr-shell/v1/shell.js`.
pub async fn script() -> Response {
    (
        [(
            CONTENT_TYPE,
            HeaderValue::from_static("text/javascript; charset=utf-8"),
        )],
        SCRIPT,
    )
        .into_response()
}

#[cfg(test)]
// A failed expectation in a test is a test failure, which is what panics mean here.
#[allow(clippy::panic)]
mod tests {
    use super::*;

    fn ok(query: &str) -> Shell {
        match read_query(Some(query)) {
            Ok(shell) => shell,
            Err(error) => panic!("{query}: {error}"),
        }
    }

    fn err(query: Option<&str>) -> AppError {
        match read_query(query) {
            Ok(shell) => panic!("{query:?}: {shell:?}"),
            Err(error) => error,
        }
    }

    #[test]
    fn the_shell_query_is_read_and_checked() {
        assert_eq!(
            ok("embed_mode=postmessage&parent_origin=https%3A%2F%2Fapp.example.com"),
            Shell {
                parent_origin: "https://app.example.com".into(),
                dark: None,
                auto_height: false,
            }
        );
        assert_eq!(
            ok("parent_origin=http://localhost:8080&dark_mode=false&height=auto&embed_mode=postmessage&x=1"),
            Shell {
                parent_origin: "http://localhost:8080".into(),
                dark: Some(false),
                auto_height: true,
            }
        );
        // The last of a repeated parameter counts.
        let repeated = ok("embed_mode=form&embed_mode=postmessage&parent_origin=https://a.example&parent_origin=https://b.example&dark_mode=true");
        assert_eq!(repeated.parent_origin, "https://b.example");
        assert_eq!(repeated.dark, Some(true));
    }

    #[test]
    fn each_bad_parameter_has_its_error() {
        assert!(matches!(err(None), AppError::NoEmbedMode));
        assert!(matches!(err(Some("")), AppError::NoEmbedMode));
        assert!(matches!(
            err(Some("parent_origin=https://a.example")),
            AppError::NoEmbedMode
        ));
        match err(Some("embed_mode=form&parent_origin=https://a.example")) {
            AppError::EmbedMode(found) => assert_eq!(found, "\"form\""),
            other => panic!("{other}"),
        }
        assert!(matches!(
            err(Some("embed_mode=PostMessage")),
            AppError::EmbedMode(_)
        ));
        assert!(matches!(
            err(Some("embed_mode=postmessage")),
            AppError::NoParentOrigin
        ));
        match err(Some(
            "embed_mode=postmessage&parent_origin=https://a.example/",
        )) {
            AppError::ParentOrigin { error, found } => {
                assert_eq!(error, origin::OriginError::Path);
                assert_eq!(found, "\"https://a.example/\"");
            }
            other => panic!("{other}"),
        }
        assert!(matches!(
            err(Some("embed_mode=postmessage&parent_origin=")),
            AppError::ParentOrigin { .. }
        ));
        assert!(matches!(
            err(Some(
                "embed_mode=postmessage&parent_origin=https://a.example&dark_mode=1"
            )),
            AppError::DarkMode
        ));
        match err(Some(
            "embed_mode=postmessage&parent_origin=https://a.example&height=400px",
        )) {
            AppError::Height(found) => assert_eq!(found, "\"400px\""),
            other => panic!("{other}"),
        }
    }

    #[test]
    fn the_script_imports_the_engine_the_page_names() {
        assert!(SCRIPT.contains("await import(page.engine)"));
        assert!(SCRIPT.contains("await engine.default()"));
        assert!(SCRIPT.contains("engine.startShell({"));
        assert!(SCRIPT.contains("containerId: \"zdr-chart\""));
        // No package path is built in: the host's configuration names it.
        assert!(!SCRIPT.contains("node_modules"));
    }
}
