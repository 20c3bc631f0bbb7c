//! What `site.yaml` may leave out, and what a build puts in its place: the
//! four standard groups, the engines `findings` knows by id, and the palette
//! engine colours are taken from. `site.rs` reads the file and fills the
//! gaps from here; `findings init` writes a new site's `site.yaml` from the
//! same tables, so a new site and a site that leaves the fields out read
//! alike. docs/format.md (section 4) says the same in prose.

use crate::record::{package_name, Engine, Group};

/// A group a site gets when `site.yaml` has no `groups` field.
#[derive(Debug, Clone, Copy)]
pub struct StandardGroup {
    /// Its id (`hidden-speed`).
    pub id: &'static str,
    /// Its heading.
    pub title: &'static str,
    /// The Markdown under the heading.
    pub blurb: &'static str,
}

/// The four groups of the product, in the order the home page shows them:
/// the bundled site's own titles and blurbs.
pub const STANDARD_GROUPS: &[StandardGroup] = &[
    StandardGroup {
        id: "changed-answers",
        title: "Answers that changed",
        blurb: "Cases where a serving option, a chat template or a grader altered what \
                the model replied, or how that reply was scored, without any error.",
    },
    StandardGroup {
        id: "hidden-speed",
        title: "Speed that a benchmark does not show",
        blurb: "Throughput figures that look fine on paper but hide the client, the \
                cache, a concurrency cap or the workload that decides real speed.",
    },
    StandardGroup {
        id: "start-stop",
        title: "Starting and stopping the server",
        blurb: "What changes between one start and the next, what survives a stop, and \
                settings that bring the engine down.",
    },
    StandardGroup {
        id: "reporting",
        title: "What the server reports",
        blurb: "Gauges, counters, logs and streamed events that say something other \
                than what the engine is actually doing.",
    },
];

/// The standard groups as records.
pub fn standard_groups() -> Vec<Group> {
    STANDARD_GROUPS
        .iter()
        .map(|g| Group {
            id: g.id.to_string(),
            title: g.title.to_string(),
            blurb: Some(g.blurb.to_string()),
        })
        .collect()
}

/// An engine `findings` knows by its id: what an entry of `site.yaml`
/// with that id gets for each field it leaves out.
#[derive(Debug, Clone, Copy)]
pub struct KnownEngine {
    /// The id a site names it by.
    pub id: &'static str,
    /// The name readers see.
    pub name: &'static str,
    /// The project's address.
    pub repo: &'static str,
    /// The Python packages that install it, as `findings audit` reads pins.
    pub packages: &'static [&'static str],
    /// Its container image repositories, without tag.
    pub images: &'static [&'static str],
}

/// The engines known by id. vLLM, SGLang and TensorRT-LLM as the bundled
/// `site.yaml` describes them; llama.cpp with its name and address only:
/// the project publishes no Python package of its own (llama-cpp-python is
/// another project, with versions of its own), and its images' tags
/// (`server-b5863`) do not name a version the way `findings audit` reads
/// one, so neither is claimed for it.
pub const KNOWN_ENGINES: &[KnownEngine] = &[
    KnownEngine {
        id: "vllm",
        name: "vLLM",
        repo: "https://github.com/vllm-project/vllm",
        packages: &["vllm"],
        images: &["vllm/vllm-openai"],
    },
    KnownEngine {
        id: "sglang",
        name: "SGLang",
        repo: "https://github.com/sgl-project/sglang",
        packages: &["sglang"],
        images: &["lmsysorg/sglang"],
    },
    KnownEngine {
        id: "tensorrt-llm",
        name: "TensorRT-LLM",
        repo: "https://github.com/NVIDIA/TensorRT-LLM",
        packages: &["tensorrt-llm"],
        images: &["nvcr.io/nvidia/tensorrt-llm/release"],
    },
    KnownEngine {
        id: "llama-cpp",
        name: "llama.cpp",
        repo: "https://github.com/ggml-org/llama.cpp",
        packages: &[],
        images: &[],
    },
];

/// The engine known by `id`, if any.
pub fn known_engine(id: &str) -> Option<&'static KnownEngine> {
    KNOWN_ENGINES.iter().find(|k| k.id == id)
}

impl KnownEngine {
    /// Its packages as an engine record holds them (compared as pip does).
    pub fn package_names(&self) -> Vec<String> {
        self.packages.iter().map(|p| package_name(p)).collect()
    }
}

/// The colours an engine without `color` gets, in this order: the four
/// colours of the Okabe-Ito palette (which stays distinguishable for the
/// common forms of colour blindness) that have a contrast ratio of at
/// least 3:1 against both a white and a near-black (#121212) background,
/// in the order the bundled site gives them to its engines. The other four
/// (black, orange, sky blue, yellow) fall below 3:1 on one of the two.
pub const PALETTE: &[&str] = &["#0072b2", "#d55e00", "#009e73", "#cc79a7"];

/// Where an engine's colour came from, for [`fill_colors`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ColorChoice {
    /// Written in `site.yaml`.
    Written,
    /// Taken from the palette.
    Palette,
    /// Taken from the palette again: every colour of it was in use.
    Repeated,
}

/// Gives each engine whose `color` is empty the next colour of the
/// [`PALETTE`], in the engines' order, skipping the colours other engines
/// were given in `site.yaml`; once every colour is in use, the palette
/// starts again. Returns, per engine, where its colour came from.
pub(super) fn fill_colors(engines: &mut [Engine]) -> Vec<ColorChoice> {
    let written: Vec<String> = engines
        .iter()
        .filter(|e| !e.color.is_empty())
        .map(|e| e.color.clone())
        .collect();
    let mut free = PALETTE.iter().filter(|c| !written.iter().any(|w| w == *c));
    let mut again = PALETTE.iter().cycle();
    engines
        .iter_mut()
        .map(|e| {
            if !e.color.is_empty() {
                return ColorChoice::Written;
            }
            match free.next() {
                Some(c) => {
                    e.color = c.to_string();
                    ColorChoice::Palette
                }
                None => {
                    e.color = again.next().map_or("#0072b2", |c| c).to_string();
                    ColorChoice::Repeated
                }
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine(id: &str, color: &str) -> Engine {
        Engine {
            id: id.into(),
            name: id.into(),
            repo: None,
            color: color.into(),
            releases: Vec::new(),
            packages: Vec::new(),
            images: Vec::new(),
        }
    }

    #[test]
    fn colours_follow_the_palette_skipping_those_written() {
        let mut es = vec![
            engine("a", ""),
            engine("b", "#0072b2"),
            engine("c", ""),
            engine("d", ""),
            engine("e", ""),
            engine("f", ""),
        ];
        let how = fill_colors(&mut es);
        let colors: Vec<&str> = es.iter().map(|e| e.color.as_str()).collect();
        // a skips #0072b2 (b's), then the rest in order, then again from the start.
        assert_eq!(
            colors,
            ["#d55e00", "#0072b2", "#009e73", "#cc79a7", "#0072b2", "#d55e00"]
        );
        use ColorChoice::*;
        assert_eq!(
            how,
            [Palette, Written, Palette, Palette, Repeated, Repeated]
        );
    }

    #[test]
    fn the_palette_keeps_its_contrast() {
        // WCAG relative luminance and contrast ratio.
        fn lum(hex: &str) -> f64 {
            let ch = |i: usize| {
                let c = f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap()) / 255.0;
                if c <= 0.039_28 {
                    c / 12.92
                } else {
                    ((c + 0.055) / 1.055).powf(2.4)
                }
            };
            0.2126 * ch(1) + 0.7152 * ch(3) + 0.0722 * ch(5)
        }
        let ratio = |a: &str, b: &str| {
            let (x, y) = (lum(a), lum(b));
            (x.max(y) + 0.05) / (x.min(y) + 0.05)
        };
        for c in PALETTE {
            assert!(ratio(c, "#ffffff") >= 3.0, "{c} on white");
            assert!(ratio(c, "#121212") >= 3.0, "{c} on #121212");
        }
        // And the Okabe-Ito colours left out do fall short on one of them.
        for c in ["#000000", "#e69f00", "#56b4e9", "#f0e442"] {
            assert!(
                ratio(c, "#ffffff") < 3.0 || ratio(c, "#121212") < 3.0,
                "{c}"
            );
        }
    }

    #[test]
    fn known_engines_agree_with_the_bundled_site() {
        let text = include_str!("../../site.yaml");
        for k in KNOWN_ENGINES.iter().filter(|k| k.id != "llama-cpp") {
            let at = text.find(&format!("- id: {}\n", k.id)).unwrap();
            let entry = &text[at..];
            let entry = &entry[..entry[2..].find("- id:").map_or(entry.len(), |e| e + 2)];
            assert!(entry.contains(&format!("name: {}\n", k.name)), "{}", k.id);
            assert!(entry.contains(&format!("repo: {}\n", k.repo)), "{}", k.id);
            let list = |xs: &[&str]| format!("[{}]", xs.join(", "));
            assert!(entry.contains(&format!("packages: {}\n", list(k.packages))));
            assert!(entry.contains(&format!("images: {}\n", list(k.images))));
        }
        for g in STANDARD_GROUPS {
            let at = text.find(&format!("- id: {}\n", g.id)).unwrap();
            let entry = &text[at..];
            assert!(entry.contains(&format!("title: {}\n", g.title)), "{}", g.id);
            let blurb: String = entry[entry.find("blurb: >-\n").unwrap() + 10..]
                .lines()
                .take_while(|l| l.starts_with("      "))
                .map(str::trim)
                .collect::<Vec<_>>()
                .join(" ");
            assert_eq!(blurb, g.blurb, "{}", g.id);
        }
    }
}
