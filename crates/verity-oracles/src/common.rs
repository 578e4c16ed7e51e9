//! What every scorer uses: code out of fences, short excerpts for evidence, the
//! not-applicable score.

use verity_model::Score;

/// Extracts the first fenced code block of `lang` (or any fence when `lang` is empty); returns
/// the text as is when there is no fence.
pub fn strip_fence<'a>(text: &'a str, lang: &str) -> &'a str {
    let mut rest = text;
    while let Some(start) = rest.find("```") {
        let after = &rest[start + 3..];
        let line_end = after.find('\n').unwrap_or(after.len());
        let tag = after[..line_end].trim();
        let body = &after[(line_end + 1).min(after.len())..];
        let Some(end) = body.find("```") else { break };
        if lang.is_empty() || tag.eq_ignore_ascii_case(lang) || tag.is_empty() {
            return &body[..end];
        }
        rest = &body[end + 3..];
    }
    text
}

/// Shortens `s` for evidence messages.
pub(crate) fn excerpt(s: &str, max: usize) -> String {
    let s = s.trim();
    if s.chars().count() <= max {
        return s.to_owned();
    }
    let cut: String = s.chars().take(max).collect();
    format!("{cut}…")
}

/// The JSON an answer holds: the whole text with `raw`, else its first ```json fence (or the
/// whole text without one).
pub(crate) fn json_text(text: &str, raw: bool) -> &str {
    if raw { text } else { strip_fence(text, "json") }
}

/// A cross-epoch scorer's verdict when there is nothing to compare: not applicable.
pub(crate) fn too_few_epochs(
    scorer: &str,
    criterion: &str,
    members: &[verity_model::GroupMember<'_>],
) -> Option<Vec<Score>> {
    (members.len() < 2).then(|| vec![na(scorer, criterion, "fewer than two epochs to compare")])
}

pub(crate) fn na(scorer: &str, criterion: &str, why: &str) -> Score {
    Score::new(scorer, criterion, verity_model::ScoreStatus::NotApplicable).explain(why)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences() {
        assert_eq!(
            strip_fence("a\n```json\n{\"x\":1}\n```\nb", "json"),
            "{\"x\":1}\n"
        );
        assert_eq!(
            strip_fence("```swift\nlet a\n```\n```json\n[]\n```", "json"),
            "[]\n"
        );
        assert_eq!(strip_fence("plain", "json"), "plain");
        assert_eq!(strip_fence("```\nx\n```", "json"), "x\n");
        assert_eq!(
            strip_fence("```json\nunterminated", "json"),
            "```json\nunterminated"
        );
    }
}
