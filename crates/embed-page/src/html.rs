//! HTML text: escaping, the page frame, and the pages the embed addresses
//! answer with (the error and the postMessage shell; the chart page is
//! `chart_page`).

use base64::Engine;
use sha2::{Digest, Sha256};

/// Escapes text for HTML content and quoted attribute values: the SVG
/// writer's escaping, which the inline SVG of the chart page needs anyway
/// (it also turns characters XML forbids into U+FFFD).
pub fn escape(text: &str) -> String {
    zdr_chart::paint::svg::escape(text)
}

/// A page and the CSP hash of its one stylesheet.
pub struct Page {
    pub html: String,
    pub style_hash: String,
}

pub fn style_hash(style: &str) -> String {
    let digest = Sha256::digest(style.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

fn page(title: &str, style: &str, body: &str) -> Page {
    document("", title, style, "", body)
}

/// A page whose `<html>` element carries `html_attributes` (each with its
/// leading space, values escaped) and whose head ends with `head` (markup).
fn document(html_attributes: &str, title: &str, style: &str, head: &str, body: &str) -> Page {
    let mut html = String::with_capacity(body.len() + style.len() + 512);
    push_head(&mut html, html_attributes, title, style, head);
    html.push_str(body);
    html.push('\n');
    push_tail(&mut html);
    Page {
        html,
        style_hash: style_hash(style),
    }
}

/// Everything up to and including `<body>` and its newline.
pub(crate) fn push_head(
    html: &mut String,
    html_attributes: &str,
    title: &str,
    style: &str,
    head: &str,
) {
    html.push_str("<!doctype html>\n<html lang=\"en\"");
    html.push_str(html_attributes);
    html.push_str(
        ">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"referrer\" content=\"no-referrer\">\n<title>",
    );
    html.push_str(&escape(title));
    html.push_str("</title>\n<style>");
    html.push_str(style);
    html.push_str("</style>\n");
    html.push_str(head);
    html.push_str("</head>\n<body>\n");
}

pub(crate) fn push_tail(html: &mut String) {
    html.push_str("</body>\n</html>\n");
}

const ERROR_STYLE: &str = "html,body{margin:0;background:#fff8f6;color:#3b1d18;\
font:14px/1.5 Helvetica,Arial,sans-serif}main{padding:16px 20px}\
h1{font-size:16px;margin:0 0 8px;color:#a3271b}code,pre{font:13px/1.4 ui-monospace,Menlo,Consolas,monospace}\
pre{white-space:pre-wrap;word-break:break-word;background:#fff;border:1px solid #f0c9c2;padding:8px 10px;margin:8px 0}\
p{margin:4px 0}.status{color:#7a4b44}";

/// The error page: shown inside the iframe, so the developer embedding
/// the card sees what to fix.
pub fn error_page(status: u16, heading: &str, detail: &str, hint: &str) -> Page {
    let mut body = format!(
        "<main>\n<h1>{}</h1>\n<pre>{}</pre>\n",
        escape(heading),
        escape(detail)
    );
    if !hint.is_empty() {
        body.push_str(&format!("<p>{}</p>\n", escape(hint)));
    }
    body.push_str(&format!(
        "<p class=\"status\">HTTP {status} \u{b7} zdr-host</p>\n</main>"
    ));
    page(heading, ERROR_STYLE, &body)
}

/// The shell's stylesheet, the same for every shell (so its hash is too):
/// a transparent frame, and the chart filling it, or with `height=auto`
/// as tall as the widget's canvas makes it (it keeps an aspect ratio).
const SHELL_STYLE: &str = "html,body{margin:0;padding:0;background:transparent;overflow:hidden}\
#zdr-chart{width:100%;height:100vh}html[data-height=auto] #zdr-chart{height:auto}";

/// The postMessage shell: an empty container and one module script from
/// this host; the settings travel as data attributes of `<html>`, where the
/// script reads them. No data is in it: they arrive later by postMessage.
/// The shell page: its settings as `data-` attributes of `<html>` (read by
/// the one script, `script_src`), and the engine module that script imports
/// (`engine_url`, the host's --engine-url), so that the page loads the
/// engine alone and the operator chooses where it lives.
pub fn shell_page(
    parent_origin: &str,
    dark: Option<bool>,
    auto_height: bool,
    script_src: &str,
    engine_url: &str,
) -> Page {
    let mut attributes = format!(
        " data-parent-origin=\"{}\" data-engine=\"{}\"",
        escape(parent_origin),
        escape(engine_url)
    );
    if let Some(dark) = dark {
        attributes.push_str(&format!(
            " data-dark-mode=\"{}\"",
            escape(&dark.to_string())
        ));
    }
    if auto_height {
        attributes.push_str(" data-height=\"auto\"");
    }
    let head = format!(
        "<script type=\"module\" src=\"{}\"></script>\n",
        escape(script_src)
    );
    document(
        &attributes,
        "Chart",
        SHELL_STYLE,
        &head,
        "<div id=\"zdr-chart\"></div>",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_every_metacharacter() {
        assert_eq!(
            escape("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn the_style_hash_matches_the_style() {
        let p = error_page(400, "</title><script>", "x", "");
        assert!(p
            .html
            .contains("<title>&lt;/title&gt;&lt;script&gt;</title>"));
        assert!(p.style_hash.starts_with("'sha256-") && p.style_hash.ends_with("='"));
        assert_eq!(p.style_hash, style_hash(ERROR_STYLE));
    }

    #[test]
    fn the_shell_page_carries_its_settings_as_escaped_attributes() {
        let p = shell_page(
            "https://a.example",
            Some(true),
            true,
            "/s.js",
            "/e/zdr_engine.js",
        );
        assert!(p.html.starts_with(
            "<!doctype html>\n<html lang=\"en\" data-parent-origin=\"https://a.example\" \
             data-engine=\"/e/zdr_engine.js\" data-dark-mode=\"true\" data-height=\"auto\">\n<head>\n"
        ));
        assert!(p
            .html
            .contains("<script type=\"module\" src=\"/s.js\"></script>\n</head>"));
        assert!(p
            .html
            .contains("<body>\n<div id=\"zdr-chart\"></div>\n</body>"));
        assert_eq!(p.style_hash, style_hash(SHELL_STYLE));

        let p = shell_page(
            "\"><script>alert(1)</script>",
            None,
            false,
            "/s.js",
            "/a'&\"<b>.js",
        );
        assert!(p
            .html
            .contains(" data-engine=\"/a&#39;&amp;&quot;&lt;b&gt;.js\">"));
        assert!(p
            .html
            .contains("data-parent-origin=\"&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\" "));
        let html_tag = p.html.lines().nth(1).unwrap_or_default();
        assert!(html_tag.starts_with("<html ") && html_tag.ends_with("\">"));
        assert!(!html_tag.contains("data-dark-mode") && !html_tag.contains("data-height"));
        assert_eq!(p.html.matches("<script").count(), 1);

        let p = shell_page("http://[::1]:8080", Some(false), false, "/s.js", "/e.js");
        assert!(p.html.contains(
            "data-parent-origin=\"http://[::1]:8080\" data-engine=\"/e.js\" data-dark-mode=\"false\">"
        ));
    }
}
