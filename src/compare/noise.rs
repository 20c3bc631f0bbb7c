//! The noise between runs, and whether a change stands out from it: the
//! one rule `compare`, the version pages and the trends judge every change
//! by.
//!
//! A change is beyond noise only where it exceeds the noise between runs
//! of the same workload, as the site knows it from one of three things:
//!
//! - **a bound stated** for it: `--noise` or `--threshold` on the command
//!   line, a comparison's `noise`, or a rule of `site.yaml`'s `noise`
//!   list. A percentage is then the one test, as a threshold's test is in
//!   Bencher; a z-score (with its window) says how the history is read;
//! - **repeats**: two runs or more of one version (one side) differ by
//!   their range, the largest of the sides' (or of the series' versions')
//!   in percent of their mean: a change between single runs inside it may
//!   be that noise;
//! - **the series' history**: the values of the versions before, a
//!   window of them (at most [`DEFAULT_WINDOW`], at least
//!   [`DEFAULT_MIN_SAMPLE`]), as Bencher's z-score test reads a branch's
//!   history: the new value is beyond noise where it lies more than z
//!   standard deviations ([`DEFAULT_Z`]) from their mean, on the side it
//!   moved to.
//!
//! Repeats and history, where both apply, must both call a change beyond
//! noise. A tool's own spread within one run (llama-bench's `±`, the
//! standard deviation of its repetitions in one process) widens the band
//! of each, and never stands in for one: two single runs with nothing but
//! a `±` are untested, and say how large their change is.
//!
//! Takes the two values' [`Spread`]s and what the site knows
//! ([`Evidence`]); hands back a [`Noise`] with the band it was judged by.

use super::metrics::{Direction, Metric};
use super::verdict::Kind;
use crate::figures;

/// The z-score a series' history is read with where no rule says.
pub const DEFAULT_Z: f64 = crate::record::DEFAULT_NOISE_Z;
/// The most earlier versions a series' history reads where no rule says.
pub const DEFAULT_WINDOW: usize = crate::record::DEFAULT_NOISE_WINDOW;
/// The fewest earlier versions a history needs before it says anything.
pub const DEFAULT_MIN_SAMPLE: usize = crate::record::DEFAULT_NOISE_MIN_SAMPLE;

/// The measurements of one side at one workload, for one metric.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spread {
    /// How many measurements.
    pub n: usize,
    /// Their mean.
    pub mean: f64,
    /// The lowest: of the values, each less the spread its tool printed.
    pub min: f64,
    /// The highest: of the values, each plus the spread its tool printed.
    pub max: f64,
    /// The spread the tool printed of a single measurement (llama-bench's
    /// `±`); `None` for repeats, and where the tool printed none.
    pub std: Option<f64>,
    /// The largest spread the tool printed of any of the measurements (0
    /// where it printed none): what widens a band of noise.
    pub widen: f64,
    /// For repeats, how far apart they are: their range (without the
    /// tool's spread) in percent of their mean; `None` for one.
    pub repeats_pct: Option<f64>,
}

impl Spread {
    /// The spread of `values`, each with the spread its tool printed
    /// (`None` where it printed none); `None` for no values.
    pub fn of(values: &[(f64, Option<f64>)]) -> Option<Spread> {
        let n = values.len();
        if n == 0 {
            return None;
        }
        let (mut min, mut max, mut sum) = (f64::INFINITY, f64::NEG_INFINITY, 0.0);
        let (mut low, mut high, mut widen) = (f64::INFINITY, f64::NEG_INFINITY, 0.0f64);
        for &(v, s) in values {
            let s = s.unwrap_or(0.0);
            min = min.min(figures::printed_sum(v, -s));
            max = max.max(figures::printed_sum(v, s));
            low = low.min(v);
            high = high.max(v);
            widen = widen.max(s);
            sum += v;
        }
        let mean = sum / n as f64;
        Some(Spread {
            n,
            mean,
            min,
            max,
            std: if n == 1 { values[0].1 } else { None },
            widen,
            repeats_pct: (n >= 2 && mean != 0.0).then(|| (high - low) / mean.abs() * 100.0),
        })
    }

    /// The value as a reader gets it, as the values of its row are shown
    /// (`at`, see [`super::Row::together`]): the mean, and its range where
    /// there are repeats (`336.3 tok/s (330.1–340.2, 3 runs)`), or the
    /// spread the tool printed of one measurement (`1,397.71 tok/s
    /// (±70.15)`).
    pub fn shown(&self, unit: Option<&str>, at: &figures::Together) -> String {
        let with_unit = at.with_unit(self.mean, unit);
        if self.n < 2 {
            return match self.std {
                Some(s) => format!("{with_unit} (±{})", at.number(s, unit)),
                None => with_unit,
            };
        }
        let (min, max) = (at.number(self.min, unit), at.number(self.max, unit));
        if min == max {
            return format!("{with_unit} ({} runs, alike)", self.n);
        }
        format!("{with_unit} ({min}–{max}, {} runs)", self.n)
    }
}

/// Who stated a bound of noise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stated {
    /// The command line: `findings compare --noise`, `findings trends
    /// --threshold`.
    Command,
    /// The comparison's record: its `noise`.
    Record,
    /// A rule of `site.yaml`'s `noise` list.
    Site,
}

/// A bound of noise stated for a change: a percentage, or a z-score over
/// the series' history.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    /// A change inside this many percent of the earlier value is noise.
    Percent(f64, Stated),
    /// The series' history, read with this z-score, window and least
    /// sample (as Bencher's z-score test with its max and min sample
    /// size), instead of [`DEFAULT_Z`], [`DEFAULT_WINDOW`] and
    /// [`DEFAULT_MIN_SAMPLE`].
    Z {
        /// How many standard deviations from the history's mean.
        z: f64,
        /// The most earlier versions read.
        window: usize,
        /// The fewest needed.
        min_sample: usize,
    },
}

/// What a band of noise was read from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Basis {
    /// A bound stated by the command, the record or the site.
    Stated(Stated),
    /// Repeated runs of one version, `runs` of them in the widest.
    Repeats {
        /// How many runs the widest repeats hold.
        runs: usize,
    },
    /// The series' history: `versions` earlier versions, read with `z`.
    History {
        /// How many earlier versions.
        versions: usize,
        /// The z-score.
        z: f64,
    },
    /// Accuracy scores: the questions' sampling noise, by McNemar's exact
    /// test on the answers that changed (`p`) where both sides answered
    /// the same questions, else by the scores' 95% intervals (`p` none).
    Sampling {
        /// The paired test's p-value.
        p: Option<f64>,
    },
}

/// A band of noise: how far a change may go and still be noise, in
/// percent (of the earlier value; of the history's mean for a history),
/// and what it was read from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Band {
    /// Its half-width in percent, widened by the tool's own spread; in
    /// points where `points`.
    pub pct: f64,
    /// What it was read from.
    pub basis: Basis,
    /// Whether it is in points of a share ([`Evidence::points`]).
    pub points: bool,
}

impl Band {
    /// `±9.4%`: the band as every format writes it, rounded as changes are.
    pub fn shown(&self) -> String {
        format!("±{}", figures::unsigned_change(self.pct, self.points))
    }

    /// Where the band comes from, in words: `the noise site.yaml states`,
    /// `the spread of 2 repeated runs`, `the noise of the 5 versions
    /// before`.
    pub fn source_words(&self) -> String {
        match self.basis {
            Basis::Stated(Stated::Command) => "the bound given on the command line".to_string(),
            Basis::Stated(Stated::Record) => "the noise the comparison states".to_string(),
            Basis::Stated(Stated::Site) => "the noise site.yaml states".to_string(),
            Basis::Repeats { runs } => format!("the spread of {runs} repeated runs"),
            Basis::History { versions, .. } => {
                format!("the noise of the {versions} versions before")
            }
            Basis::Sampling { p: Some(_) } => "noise by McNemar's exact test".to_string(),
            Basis::Sampling { p: None } => "noise by the scores' 95% intervals".to_string(),
        }
    }

    /// The band and, for a history, its z-score: `±9.4%, z 3`.
    fn detail(&self) -> String {
        match self.basis {
            Basis::History { z, .. } => format!("{}, z {}", self.shown(), figures::number(z)),
            Basis::Sampling { p: Some(p) } => format!("p {}", figures::number(p)),
            _ => self.shown(),
        }
    }
}

/// Whether `metric`'s values are shares whose changes are in points (an
/// accuracy score: its unit is [`figures::FRACTION`]).
pub fn in_points(metric: &Metric) -> bool {
    metric.unit.as_deref() == Some(figures::FRACTION)
}

/// Whether a change stands out from the noise between runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Noise {
    /// Inside the band: the change may be noise.
    Within(Band),
    /// Outside it: the change stands out.
    Beyond(Band),
    /// Nothing to judge it by: single runs, no bound stated, no history.
    Untested,
}

impl Noise {
    /// In words, for sentences and titles: `within the noise of the 5
    /// versions before (±9.4%, z 3)`, `single runs: not tested against
    /// noise`.
    pub fn words(&self) -> String {
        match self {
            Noise::Within(b) => format!("within {} ({})", b.source_words(), b.detail()),
            Noise::Beyond(b) => format!("beyond {} ({})", b.source_words(), b.detail()),
            Noise::Untested => "single runs: not tested against noise".to_string(),
        }
    }

    /// In a few words, for a table's cell: `within noise (±9.4%)`,
    /// `untested`.
    pub fn short(&self) -> String {
        match self {
            Noise::Within(b) => format!("within noise ({})", b.shown()),
            Noise::Beyond(b) => format!("beyond noise ({})", b.shown()),
            Noise::Untested => "untested".to_string(),
        }
    }

    /// A short name for scripts (`within`, `beyond`, `untested`).
    pub fn key(&self) -> &'static str {
        match self {
            Noise::Within(_) => "within",
            Noise::Beyond(_) => "beyond",
            Noise::Untested => "untested",
        }
    }

    /// Whether the change may be read as real.
    pub fn stands_out(&self) -> bool {
        matches!(self, Noise::Beyond(_))
    }

    /// The band it was judged by, where one was.
    pub fn band(&self) -> Option<Band> {
        match self {
            Noise::Within(b) | Noise::Beyond(b) => Some(*b),
            Noise::Untested => None,
        }
    }
}

/// A side's value against the baseline's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Change {
    /// In percent of the baseline's mean; in points where `points`.
    pub pct: f64,
    /// Whether it stands out from the noise.
    pub noise: Noise,
    /// Better, worse or the same, by the metric's direction, whatever the
    /// noise says.
    pub direction: Direction,
    /// Whether it is in points of a share (an accuracy score), not in
    /// percent of the baseline.
    pub points: bool,
}

impl Change {
    /// The change as every format writes it: `+26%`, `−2.5%`; in points
    /// for a share (`−2.1 points`).
    pub fn shown(&self) -> String {
        figures::signed_change(self.pct, self.points)
    }

    /// What the change is for a reader: better or worse beyond noise
    /// (an improvement, a regression), within noise, untested, the same.
    pub fn kind(&self) -> Kind {
        match (self.direction, self.noise) {
            (Direction::Same, _) => Kind::Same,
            (_, Noise::Untested) => Kind::Untested,
            (Direction::Worse, Noise::Beyond(_)) => Kind::Regression,
            (_, Noise::Beyond(_)) => Kind::Improvement,
            _ => Kind::Within,
        }
    }

    /// The word of its direction as a reader gets it: `worse`, `better`
    /// only where the change is not within noise (a change under its
    /// noise is neither), `the same` where it rounds to 0%; `None` within
    /// noise.
    pub fn way(&self) -> Option<&'static str> {
        match self.kind() {
            Kind::Same => Some("the same"),
            Kind::Within => None,
            _ => Some(self.direction.as_str()),
        }
    }

    /// The change, its direction and its noise in a few words, as every
    /// table writes them: `+13% better, beyond noise (±7.7%)`, `−2.5%,
    /// within noise (±9.4%)`, `−7.4% worse, untested`, `0% the same`.
    pub fn words(&self) -> String {
        self.said(&self.noise.short())
    }

    /// The same with the noise in full, for a sentence: `−7.4% worse,
    /// single runs: not tested against noise`.
    pub fn long_words(&self) -> String {
        self.said(&self.noise.words())
    }

    fn said(&self, noise: &str) -> String {
        match self.kind() {
            Kind::Same => format!("{} the same", self.shown()),
            Kind::Within => format!("{}, {noise}", self.shown()),
            _ => format!("{} {}, {noise}", self.shown(), self.direction.as_str()),
        }
    }
}

/// What the site knows of the noise of one change, besides its two
/// values: a bound stated for it, the widest repeats among the versions
/// (or sides) around it, and the values of its series' earlier
/// versions, the latest last.
#[derive(Debug, Clone, Copy, Default)]
pub struct Evidence<'a> {
    /// A bound stated: the one test where given.
    pub bound: Option<Bound>,
    /// The widest repeats: (their range in percent of their mean, how
    /// many runs); in points where `points` ([`widest_repeats_in_points`]).
    pub repeats: Option<(f64, usize)>,
    /// The earlier versions' values, oldest first; empty where there is
    /// no series (two sides set side by side).
    pub history: &'a [f64],
    /// Whether the values are shares (an accuracy score, 0 to 1) whose
    /// change is in points: `pct` is the difference times 100, and every
    /// band is in points too (a repeats' range, a history's reach, a
    /// tool's spread, a bound stated), not in percent of the baseline.
    pub points: bool,
}

/// The change from `base` to `side` of `metric`, judged against what
/// `evidence` knows of the noise, with which way it goes; `None` where no
/// percentage means anything (a baseline of 0).
pub fn judged(
    base: &Spread,
    side: &Spread,
    metric: &Metric,
    evidence: &Evidence,
) -> Option<Change> {
    let points = evidence.points || in_points(metric);
    let pct = if points {
        (base.mean.is_finite() && side.mean.is_finite())
            .then_some((side.mean - base.mean) * 100.0)?
    } else {
        figures::change_pct(base.mean, side.mean)?
    };
    let evidence = Evidence {
        points,
        ..*evidence
    };
    Some(Change {
        pct,
        noise: judge(base, side, pct, &evidence),
        direction: Direction::of(pct, metric.higher_is_better),
        points,
    })
}

/// Whether a change of `pct` from `base` to `side` stands out from the
/// noise `evidence` knows of.
pub fn judge(base: &Spread, side: &Spread, pct: f64, evidence: &Evidence) -> Noise {
    // The tools' own spreads, in percent of the baseline: they widen
    // every band.
    let widen = if evidence.points {
        (base.widen + side.widen) * 100.0
    } else if base.mean == 0.0 {
        0.0
    } else {
        (base.widen + side.widen) / base.mean.abs() * 100.0
    };
    let percent = |p: f64, basis: Basis| {
        let band = Band {
            pct: p + widen,
            basis,
            points: evidence.points,
        };
        if pct.abs() > band.pct {
            Noise::Beyond(band)
        } else {
            Noise::Within(band)
        }
    };
    let history = |z: f64, window: usize, min_sample: usize| -> Option<Noise> {
        let start = evidence.history.len().saturating_sub(window);
        let h = &evidence.history[start..];
        if h.len() < min_sample.max(2) {
            return None;
        }
        let mean = h.iter().sum::<f64>() / h.len() as f64;
        let var = h.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (h.len() - 1) as f64;
        let sd = var.sqrt();
        // A history of one value repeated says nothing of its spread.
        if sd == 0.0 || (mean == 0.0 && !evidence.points) || !sd.is_finite() {
            return None;
        }
        let reach = z * sd + side.widen;
        let band = Band {
            pct: if evidence.points {
                reach * 100.0
            } else {
                reach / mean.abs() * 100.0
            },
            basis: Basis::History {
                versions: h.len(),
                z,
            },
            points: evidence.points,
        };
        let out =
            (side.mean > mean + reach && pct > 0.0) || (side.mean < mean - reach && pct < 0.0);
        Some(if out {
            Noise::Beyond(band)
        } else {
            Noise::Within(band)
        })
    };
    // Repeats, and the history (as a rule reads it, else by default):
    // each that applies must call the change beyond noise.
    let (z, window, min_sample) = match evidence.bound {
        Some(Bound::Percent(p, by)) => return percent(p, Basis::Stated(by)),
        Some(Bound::Z {
            z,
            window,
            min_sample,
        }) => (z, window, min_sample),
        None => (DEFAULT_Z, DEFAULT_WINDOW, DEFAULT_MIN_SAMPLE),
    };
    let mut tests: Vec<Noise> = Vec::new();
    if let Some((p, runs)) = evidence.repeats {
        tests.push(percent(p, Basis::Repeats { runs }));
    }
    tests.extend(history(z, window, min_sample));
    if let Some(within) = tests.iter().find(|t| !t.stands_out()) {
        return *within;
    }
    tests
        .into_iter()
        .max_by(|a, b| {
            let w = |n: &Noise| n.band().map_or(0.0, |b| b.pct);
            w(a).total_cmp(&w(b))
        })
        .unwrap_or(Noise::Untested)
}

/// The bound a rule of `site.yaml` states, as the judge reads it.
pub fn stated(bound: crate::record::NoiseBound, by: Stated) -> Bound {
    match bound {
        crate::record::NoiseBound::Percent(p) => Bound::Percent(p, by),
        crate::record::NoiseBound::Z {
            z,
            window,
            min_sample,
        } => Bound::Z {
            z,
            window,
            min_sample,
        },
    }
}

/// The widest repeats of `spreads`: their range in percent of their mean,
/// and how many runs; `None` where none has repeats.
pub fn widest_repeats<'s>(spreads: impl IntoIterator<Item = &'s Spread>) -> Option<(f64, usize)> {
    spreads
        .into_iter()
        .filter_map(|s| s.repeats_pct.map(|p| (p, s.n)))
        .max_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
}

/// The widest repeats of `spreads` of shares: their range in points (100
/// times the range), and how many runs; `None` where none has repeats.
pub fn widest_repeats_in_points<'s>(
    spreads: impl IntoIterator<Item = &'s Spread>,
) -> Option<(f64, usize)> {
    spreads
        .into_iter()
        .filter_map(|s| s.repeats_pct.map(|p| (p * s.mean.abs(), s.n)))
        .max_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
}

/// Each change of `c` judged by the rule of `rules` (`site.yaml`'s
/// `noise`) that names it, where one does: by its metric, its workload
/// (by title) and the engine of both its side and the baseline; the
/// others as they were. For a comparison that states no noise of its own.
pub fn judge_by_rules(c: &mut super::Comparison, rules: &[crate::record::NoiseRule]) {
    if rules.is_empty() {
        return;
    }
    let titles: Vec<String> = c.workloads.iter().map(super::trend::title_of).collect();
    let base_engine = c.sides.first().and_then(|s| s.engine.clone());
    for row in &mut c.rows {
        let metric = &c.metrics[row.metric];
        let title = &titles[row.workload];
        let slug = super::trend::slug_of(title);
        for s in 1..row.changes.len() {
            let (Some(base), Some(value)) = (row.values[0], row.values[s]) else {
                continue;
            };
            let engine = c.sides[s]
                .engine
                .as_deref()
                .filter(|e| Some(*e) == base_engine.as_deref());
            let rule =
                crate::record::noise_rule(rules, engine.unwrap_or(""), title, &slug, &metric.name)
                    .filter(|r| r.engine.is_none() || engine.is_some());
            let Some(rule) = rule else { continue };
            let evidence = Evidence {
                bound: Some(stated(rule.bound, Stated::Site)),
                repeats: widest_repeats([&base, &value]),
                history: &[],
                points: false,
            };
            row.changes[s] = judged(&base, &value, metric, &evidence);
        }
    }
}
