//! Which accounting a KV-size figure uses (issue #28): the same model's cache
//! per token is counted three ways across the book (V4-Pro: 5.4 KiB, 7.7 KiB,
//! 12.2 KB), so each such figure carries a small tag naming its accounting. The
//! tag is a link to the accounting's glossary entry, whose definition shows on
//! hover and focus (the glossary's preview) and whose words are printed.
//!
//! The book's convention is [`Accounting::Engine`]: the cache format the
//! serving engine allocates. The other two are the sources' own counts, kept
//! where the text follows a source's arithmetic.

use crate::Lang;

/// How a figure counts KV bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Accounting {
    /// The cache format an engine allocates: DeepSeek's FP8 entries (584 B for
    /// V4, 656 B for V3.2's MLA latent) and V4's 132-B indexer keys. The
    /// book's convention.
    Engine,
    /// The KV-cache survey's formula: each cached vector stored in BF16 at its
    /// width, no indexer keys.
    Formula,
    /// The deployment analysis's count: V4 as 10% of V3.2 at 61 × 2,048 B per
    /// token, K3's MLA layers as two 640-value BF16 latents each.
    Analysis,
}

impl Accounting {
    /// The glossary entry that explains it (`chapters/glossary.toml`).
    pub fn glossary_id(self) -> &'static str {
        match self {
            Accounting::Engine => "kv-accounting-engine",
            Accounting::Formula => "kv-accounting-formula",
            Accounting::Analysis => "kv-accounting-analysis",
        }
    }

    /// The tag's words in `lang`.
    pub fn label(self, lang: Lang) -> &'static str {
        use crate::say::accounting as say;
        match self {
            Accounting::Engine => say::engine.as_str(lang),
            Accounting::Formula => say::formula.as_str(lang),
            Accounting::Analysis => say::analysis.as_str(lang),
        }
    }

    /// The tag as Markdown after a figure: a link to the glossary entry (on
    /// the page the glossary's preview wraps it and `acct` styles it).
    pub fn tag(self, lang: Lang) -> String {
        format!(
            " [{}]({}/glossary#{})",
            self.label(lang),
            lang.prefix(),
            self.glossary_id()
        )
    }

    /// Every accounting, for the tests and the glossary check.
    pub const ALL: [Accounting; 3] = [
        Accounting::Engine,
        Accounting::Formula,
        Accounting::Analysis,
    ];
}

/// The accounting of the figure `name`, if it is a KV size of a model whose
/// count differs between the accountings (a per-token size or a request's
/// total). Every figure whose name has `per_token` must have one (a test
/// checks each chapter's figures).
pub fn of(name: &str) -> Option<Accounting> {
    let (demo, figure) = name.split_once('.')?;
    let figure = figure.strip_suffix("@zh").unwrap_or(figure);
    let kv_size = figure.contains("per_token")
        || figure.ends_with("_1m_gib")
        || figure.ends_with("_1mi_gib")
        || figure.ends_with("_1m_gb")
        || figure.ends_with("_1m_total_gb")
        || figure.ends_with("_500k_gb")
        || figure.ends_with("_128k_gib");
    if !kv_size {
        return None;
    }
    Some(match demo {
        // The new models' ledger counts the engine's format; its two `alt_`
        // figures are the other sources' counts of V4-Pro.
        "ledger" if figure.starts_with("alt_bf16") => Accounting::Formula,
        "ledger" if figure.starts_with("alt_deploy") => Accounting::Analysis,
        "ledger" => Accounting::Engine,
        // The KV-cache chapter's calculator follows its source's formula; its
        // `nm_` figures are the ledger's count, quoted beside it.
        "kv_calc" if figure.starts_with("nm_") => Accounting::Engine,
        "kv_calc" => Accounting::Formula,
        // The deployment chapter follows the analysis; `nm_` as above.
        "request_kv" if figure.starts_with("nm_") => Accounting::Engine,
        "request_kv" => Accounting::Analysis,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v4_pro_counted_three_ways_carries_three_tags() {
        assert_eq!(of("ledger.pro_per_token_kib"), Some(Accounting::Engine));
        assert_eq!(
            of("ledger.alt_bf16_per_token_kib"),
            Some(Accounting::Formula)
        );
        assert_eq!(of("request_kv.v4_per_token_kb"), Some(Accounting::Analysis));
        assert_eq!(of("kv_calc.nm_pro_per_token_kib"), Some(Accounting::Engine));
        assert_eq!(of("kv_calc.v4_1m_gib@zh"), Some(Accounting::Formula));
        // Not a KV size: no tag.
        assert_eq!(of("planner.v4_h200_total"), None);
        assert_eq!(of("ledger"), None);
    }

    #[test]
    fn every_per_token_figure_of_every_chapter_has_an_accounting() {
        for ch in crate::all() {
            for (name, _) in (ch.figures)() {
                if name.contains("per_token") {
                    assert!(of(name).is_some(), "{}: {name} has no accounting", ch.id);
                }
            }
        }
    }

    #[test]
    fn the_tag_links_the_glossary_in_the_page_language() {
        assert_eq!(
            Accounting::Formula.tag(Lang::Zh),
            format!(
                " [{}](/zh/glossary#kv-accounting-formula)",
                Accounting::Formula.label(Lang::Zh)
            )
        );
        let terms = crate::glossary::terms().unwrap();
        let ids: Vec<&str> = terms.iter().map(|t| t.id.as_str()).collect();
        for a in Accounting::ALL {
            assert!(ids.contains(&a.glossary_id()), "{a:?}");
        }
    }
}
