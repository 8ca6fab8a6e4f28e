//! `use` paths: their forms, the name they bind, and where a program they
//! name may live on disk. Shared by the rules, name resolution and the
//! hosts' loaders, so all of them agree.
//!
//! Forms (spec-rows.md §3.7): the registry form `@handle/slug` (also written
//! `handle/slug` or `https://p.prose.md/[@]handle/slug`), a local path
//! (`./x.prose`, `../x`, `/abs/x`, anything ending in `.prose`), or another URL.

use crate::{config::Config, db::join_path};

/// The registry host whose URLs name the same program as `@handle/slug`.
const REGISTRY_PREFIXES: [&str; 2] = ["https://p.prose.md/", "http://p.prose.md/"];

/// `HANDLE/SLUG`: two non-empty segments without whitespace or a further `/`.
pub fn is_handle_slug(s: &str) -> bool {
    match s.split_once('/') {
        Some((h, slug)) => {
            !h.is_empty()
                && !slug.is_empty()
                && !slug.contains('/')
                && !s.chars().any(char::is_whitespace)
        }
        None => false,
    }
}

pub fn is_url(p: &str) -> bool {
    p.starts_with("http://") || p.starts_with("https://")
}

/// A local file path: `./x`, `../x`, `/x`, or anything ending in `.prose`.
pub fn is_local_path(p: &str) -> bool {
    !is_url(p)
        && (p.starts_with("./")
            || p.starts_with("../")
            || p.starts_with('/')
            || p.ends_with(".prose"))
}

/// `@handle/slug` for the registry forms (`@h/s`, `h/s`, `https://p.prose.md/[@]h/s`).
pub fn registry_form(path: &str) -> Option<String> {
    let p = path.trim();
    let rest = REGISTRY_PREFIXES
        .iter()
        .find_map(|pre| p.strip_prefix(pre))
        .unwrap_or(p);
    let bare = rest.strip_prefix('@').unwrap_or(rest);
    if is_local_path(rest) || is_url(rest) || !is_handle_slug(bare) {
        return None;
    }
    Some(format!("@{bare}"))
}

/// The name a `use` without `as` binds: the last path segment without a
/// `.prose` extension (`@alice/research` -> `research`).
pub fn implicit_name(path: &str) -> Option<String> {
    let last = path.trim().trim_end_matches('/').rsplit('/').next()?;
    let name = last.strip_suffix(".prose").unwrap_or(last);
    (!name.is_empty()).then(|| name.to_string())
}

/// Candidate files for a `use` path, in lookup order: the `[imports]`
/// mapping (as written, then in registry form); for a local path, the path
/// relative to the importing file's directory; for a registry form,
/// `.prose/imports/{handle}--{slug}/program.prose` under the workspace root,
/// then under the home directory.
pub fn import_candidates(
    config: &Config,
    root: &str,
    home: Option<&str>,
    file_dir: &str,
    use_path: &str,
) -> Vec<String> {
    let p = use_path.trim();
    let mut out = Vec::new();
    if p.is_empty() {
        return out;
    }
    if let Some(mapped) = config.imports.get(p) {
        out.push(join_path(root, mapped));
    }
    if is_local_path(p) {
        out.push(join_path(file_dir, p));
    } else if let Some(r) = registry_form(p) {
        if r != p
            && let Some(mapped) = config.imports.get(&r)
        {
            out.push(join_path(root, mapped));
        }
        if let Some((handle, slug)) = r[1..].split_once('/') {
            let dir = format!(".prose/imports/{handle}--{slug}/program.prose");
            out.push(join_path(root, &dir));
            if let Some(home) = home {
                out.push(join_path(home, &dir));
            }
        }
    }
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_and_candidates() {
        assert_eq!(
            registry_form("https://p.prose.md/@a/b").as_deref(),
            Some("@a/b")
        );
        assert_eq!(registry_form("a/b").as_deref(), Some("@a/b"));
        assert_eq!(registry_form("./a/b.prose"), None);
        assert_eq!(
            implicit_name("./lib/helper.prose").as_deref(),
            Some("helper")
        );
        let mut config = Config::default();
        config
            .imports
            .insert("@a/b".into(), "vendor/b.prose".into());
        assert_eq!(
            import_candidates(&config, "/ws", Some("/home/u"), "/ws/sub", "a/b"),
            [
                "/ws/vendor/b.prose",
                "/ws/.prose/imports/a--b/program.prose",
                "/home/u/.prose/imports/a--b/program.prose"
            ]
        );
        assert_eq!(
            import_candidates(&config, "/ws", None, "/ws/sub", "../lib/x.prose"),
            ["/ws/lib/x.prose"]
        );
    }
}
