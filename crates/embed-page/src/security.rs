//! Headers on every response: no caching, no sniffing, no referrer, and a
//! Content-Security-Policy chosen here, in one place, from what the route
//! said it answered with ([`Csp`]). A response that says nothing gets the
//! strictest policy: the policy fails closed.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::config::EmbedConfig;
use crate::html::Page;

/// What a response is, for its policy; routes put it in the response's
/// extensions.
#[derive(Debug, Clone)]
pub enum Csp {
    /// A chart or error page: no script, its one hashed stylesheet.
    Page { style_hash: String },
    /// A page that shows a picture of this host's (a card's kept
    /// preview): a page's policy, and images from this origin.
    PageWithPicture { style_hash: String },
    /// The postMessage shell, framed only by these sources.
    Shell {
        style_hash: String,
        frame_ancestors: String,
    },
    /// A file of the demo folder.
    Demo,
}

/// Anything that did not say what it is: nothing may load, run or frame it.
pub const STRICT_POLICY: &str = "default-src 'none'; base-uri 'none'; form-action 'none'; \
object-src 'none'; frame-ancestors 'none'";

impl IntoResponse for Page {
    fn into_response(self) -> Response {
        let csp = Csp::Page {
            style_hash: self.style_hash,
        };
        let mut response = (
            [(
                CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            )],
            self.html,
        )
            .into_response();
        response.extensions_mut().insert(csp);
        response
    }
}

/// Marks the demo folder's files (and only them) for the demo's policy.
pub fn demo<B>(mut response: axum::http::Response<B>) -> axum::http::Response<B> {
    if response.extensions().get::<Csp>().is_none() {
        response.extensions_mut().insert(Csp::Demo);
    }
    response
}

/// The embed and error pages: no script of any kind, no loads, only their
/// own hashed stylesheet.
pub fn page_policy(style_hash: &str, frame_ancestors: &str) -> String {
    picture_page_policy(style_hash, frame_ancestors, "'none'")
}

fn picture_page_policy(style_hash: &str, frame_ancestors: &str, images: &str) -> String {
    format!(
        "default-src 'none'; script-src 'none'; style-src {style_hash}; img-src {images}; \
         base-uri 'none'; form-action 'none'; frame-ancestors {frame_ancestors}"
    )
}

/// The postMessage shell: its one module script (`/zdr-shell/v1/shell.js`)
/// and the engine module it imports (--engine-url, a path on this host)
/// come from this origin ('self'), and may compile WebAssembly
/// ('wasm-unsafe-eval'). connect-src 'self' because the engine's `init()`
/// fetches `zdr_engine_bg.wasm` from this host; no
/// other address may be fetched, so the card's data, which arrive by
/// postMessage, have no way out of the frame. No 'unsafe-inline': the page
/// has no inline script, and its one stylesheet is named by its hash.
pub fn shell_policy(style_hash: &str, frame_ancestors: &str) -> String {
    format!(
        "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; \
         style-src {style_hash}; img-src 'none'; base-uri 'none'; form-action 'none'; \
         frame-ancestors {frame_ancestors}"
    )
}

/// The demo pages (static files of this repository): scripts from this
/// origin and WebAssembly; the inline import map needs 'unsafe-inline'
/// (the files are ours, nothing from a request reaches them). Frames may come
/// from any http(s) origin: a page embeds cards of a service elsewhere (the
/// postMessage end-to-end test runs the page and the service on two hosts).
fn static_policy(frame_ancestors: &str) -> String {
    format!(
        "default-src 'self'; script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'; \
         style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-src 'self' http: https:; \
         form-action 'self'; base-uri 'none'; object-src 'none'; frame-ancestors {frame_ancestors}"
    )
}

/// Where the host serves code, never data: the npm package's files and the
/// shell's script.
const CODE_PATHS: [&str; 2] = ["/node_modules/zdr-embed/", "/zdr-shell/"];

/// The engine module named by --engine-url and its WebAssembly beside it
/// (wasm-bindgen names it `<stem>_bg.wasm`): code too, wherever the
/// operator put them. Only these two files, not their folder, which may
/// hold pages.
fn is_engine_file(path: &str, engine_url: &str) -> bool {
    path == engine_url
        || engine_url
            .strip_suffix(".js")
            .and_then(|stem| path.strip_prefix(stem))
            .is_some_and(|rest| rest == "_bg.wasm")
        || engine_folder(engine_url)
            .and_then(|folder| path.strip_prefix(folder))
            .is_some_and(|name| name == CHUNK_LOADER || is_chunk(name))
}

/// The engine's loader of its chunks, beside it (scripts/engine-chunks.mjs).
const CHUNK_LOADER: &str = "__wasm_split.js";

fn engine_folder(engine_url: &str) -> Option<&str> {
    engine_url.rfind('/').map(|end| &engine_url[..=end])
}

/// A chunk of the engine, `<part>.<12 hex digits of its content's
/// hash>.wasm`, the part `kinds-<group>` (a group of card kinds),
/// `interact` or `shell`: a new build names new content anew, so a browser
/// may keep it for good.
fn is_chunk(name: &str) -> bool {
    let Some((part, hash)) = name
        .strip_suffix(".wasm")
        .and_then(|rest| rest.split_once('.'))
    else {
        return false;
    };
    let known = match part.strip_prefix("kinds-") {
        Some(group) => !group.is_empty() && group.bytes().all(|b| b.is_ascii_lowercase()),
        None => part == "interact" || part == "shell",
    };
    known
        && hash.len() == 12
        && hash
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Code may be kept by the browser and revalidated on each use (the package's
/// files answer `If-Modified-Since` with 304), so every postMessage frame does
/// not download and compile the engine again. Everything else, and every
/// error, is never stored: pages may hold a card's data.
fn cache_control(path: &str, status: StatusCode, engine_url: &str) -> &'static str {
    let code = CODE_PATHS.iter().any(|prefix| path.starts_with(prefix))
        || is_engine_file(path, engine_url);
    let named_by_content = path.rsplit('/').next().is_some_and(is_chunk);
    match (
        code && (status.is_success() || status == StatusCode::NOT_MODIFIED),
        named_by_content,
    ) {
        (true, true) => "public, max-age=31536000, immutable",
        (true, false) => "no-cache",
        (false, _) => "no-store",
    }
}

pub async fn headers(
    State(config): State<Arc<EmbedConfig>>,
    request: Request,
    next: Next,
) -> Response {
    let path = request.uri().path().to_owned();
    let mut response = next.run(request).await;
    let cache = cache_control(&path, response.status(), &config.engine_url);
    // A stored card's image or page says `private` itself (its browser may
    // keep it; no shared cache may): a success keeps what its handler set.
    let own = response.status().is_success() && response.headers().contains_key(CACHE_CONTROL);
    let headers = response.headers_mut();
    if !own {
        headers.insert(CACHE_CONTROL, HeaderValue::from_static(cache));
    }
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    let policy = match response.extensions().get::<Csp>() {
        Some(Csp::Page { style_hash }) => page_policy(style_hash, &config.frame_ancestors),
        Some(Csp::PageWithPicture { style_hash }) => {
            picture_page_policy(style_hash, &config.frame_ancestors, "'self'")
        }
        Some(Csp::Shell {
            style_hash,
            frame_ancestors,
        }) => shell_policy(style_hash, frame_ancestors),
        Some(Csp::Demo) => static_policy(&config.frame_ancestors),
        None => STRICT_POLICY.to_string(),
    };
    let value =
        HeaderValue::from_str(&policy).unwrap_or_else(|_| HeaderValue::from_static(STRICT_POLICY));
    response
        .headers_mut()
        .insert(CONTENT_SECURITY_POLICY, value);
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_code_that_was_found_may_be_kept() {
        let ok = StatusCode::OK;
        let cache_control = |path: &str, status| {
            super::cache_control(path, status, crate::config::DEFAULT_ENGINE_URL)
        };
        assert_eq!(
            cache_control("/node_modules/zdr-embed/pkg/zdr_embed_bg.wasm", ok),
            "no-cache"
        );
        assert_eq!(
            cache_control("/node_modules/zdr-embed/pkg/x.js", StatusCode::NOT_MODIFIED),
            "no-cache"
        );
        assert_eq!(cache_control("/zdr-shell/v1/shell.js", ok), "no-cache");
        assert_eq!(
            cache_control(
                "/node_modules/zdr-embed/pkg/missing.js",
                StatusCode::NOT_FOUND
            ),
            "no-store"
        );
        for page in [
            "/embed/x/",
            "/",
            "/index.html",
            "/healthz",
            "/node_modules/other/x.js",
        ] {
            assert_eq!(cache_control(page, ok), "no-store", "{page}");
        }
    }

    #[test]
    fn an_engine_elsewhere_is_code_too_but_not_its_folder() {
        let ok = StatusCode::OK;
        let engine = "/static/e/zdr_engine.js";
        assert_eq!(cache_control(engine, ok, engine), "no-cache");
        assert_eq!(
            cache_control(
                "/static/e/zdr_engine_bg.wasm",
                StatusCode::NOT_MODIFIED,
                engine
            ),
            "no-cache"
        );
        assert_eq!(
            cache_control(engine, StatusCode::NOT_FOUND, engine),
            "no-store"
        );
        assert_eq!(
            cache_control("/static/e/__wasm_split.js", ok, engine),
            "no-cache"
        );
        for chunk in ["kinds-lines", "interact", "shell"] {
            assert_eq!(
                cache_control(&format!("/static/e/{chunk}.0123456789ab.wasm"), ok, engine),
                "public, max-age=31536000, immutable"
            );
        }
        for other in [
            "/static/e/interact.wasm",
            "/static/e/interact.0123456789ab.wasm.html",
            "/static/e/other.0123456789ab.wasm",
            "/static/e/kinds-.0123456789ab.wasm",
            "/static/e/kinds-lines.wasm",
            "/static/e/kinds-lines.0123456789ab.wasm.html",
            "/static/e/kinds-Lines.0123456789ab.wasm",
            "/static/other/kinds-lines.0123456789ab.wasm",
            "/static/e/",
            "/static/e/index.html",
            "/static/e/zdr_engine.js.html",
            "/static/e/zdr_engine_bg.wasm.html",
            "/static/e/zdr_engine",
        ] {
            assert_eq!(cache_control(other, ok, engine), "no-store", "{other}");
        }
    }
}
