//! Laying a guest's semantic tokens over its host's: the host marks a
//! prompt string as a string, the guest marks `_terminate_` inside it as
//! an action; the result is the string cut around the action.

use prose_syntax::TextRange;

use crate::features::semantic_tokens::SemanticToken;

/// `host` with `guest` laid over it: where a guest token stands, the
/// host's token is cut around it. Each list is sorted; the result is
/// sorted and has no overlaps (a guest token overlapping an earlier guest
/// token is dropped).
pub(crate) fn overlay(host: Vec<SemanticToken>, guest: Vec<SemanticToken>) -> Vec<SemanticToken> {
    if guest.is_empty() {
        return host;
    }
    let mut guests: Vec<SemanticToken> = Vec::with_capacity(guest.len());
    for t in guest {
        if t.range.is_empty() {
            continue;
        }
        if guests
            .last()
            .is_some_and(|l| t.range.start() < l.range.end())
        {
            continue;
        }
        guests.push(t);
    }
    let mut out: Vec<SemanticToken> = Vec::with_capacity(host.len() + guests.len());
    let mut first = 0;
    for h in host {
        while first < guests.len() && guests[first].range.end() <= h.range.start() {
            first += 1;
        }
        let mut at = h.range.start();
        for g in guests[first..]
            .iter()
            .take_while(|g| g.range.start() < h.range.end())
        {
            if g.range.start() > at {
                out.push(SemanticToken {
                    range: TextRange::new(at, g.range.start()),
                    ..h
                });
            }
            at = at.max(g.range.end());
        }
        if at < h.range.end() {
            out.push(SemanticToken {
                range: TextRange::new(at, h.range.end()),
                ..h
            });
        }
    }
    out.extend(guests);
    out.sort_by_key(|t| (t.range.start(), t.range.end()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::semantic_tokens::{SemanticTokenKind as K, TokenModifiers};

    fn t(a: u32, b: u32, kind: K) -> SemanticToken {
        SemanticToken {
            range: TextRange::new(a.into(), b.into()),
            kind,
            modifiers: TokenModifiers::NONE,
        }
    }

    #[test]
    fn guests_cut_the_host_tokens_they_stand_on() {
        let host = vec![t(0, 7, K::Keyword), t(8, 30, K::String)];
        let guest = vec![
            t(10, 21, K::Action),
            t(22, 29, K::EnumMember),
            t(25, 27, K::Variable),
        ];
        let out: Vec<(u32, u32, K)> = overlay(host, guest)
            .iter()
            .map(|t| (t.range.start().into(), t.range.end().into(), t.kind))
            .collect();
        assert_eq!(
            out,
            [
                (0, 7, K::Keyword),
                (8, 10, K::String),
                (10, 21, K::Action),
                (21, 22, K::String),
                (22, 29, K::EnumMember),
                (29, 30, K::String),
            ]
        );
    }
}
