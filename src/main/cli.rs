//! The command line as clap reads it: every command, option and value,
//! with the help text people see.

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

pub(crate) const EXIT_STATUS: &str = "\
Exit status:
  0  success: the folder is clean (warnings allowed) and the command did its work;
     `serve` also exits 0 when stopped with Ctrl-C
  1  errors in the records, a template that fails, output that cannot be written,
     an output folder that another findings process is writing (`build`,
     `serve`: nothing is touched), `show` of a finding that does not exist,
     `new` that would overwrite a file, `init` of a folder that has a site or
     records already (nothing is written), or `serve` that cannot listen on its
     port; `import` of an input it cannot read or that would replace a kept
     file; for `audit`, a finding at or above --fail-on applies to a version
     the deployment pins; for `lint`, a check flags the files (an issue
     that holds no report is 0); for `trends --fail-on regression`, a
     regression is found
  2  a wrong command line: an unknown option or value, an unknown engine or group,
     an `import` that names no engine or version, an `init` engine id or base
     URL that cannot be;
     for `audit`, an audit that cannot be done: a pin that names no version, a
     source or an input that cannot be read, records with errors; for `lint`, a
     lint that cannot be done (an input or a source that cannot be read); for
     `trends`, trends that cannot be said (records with errors, an unknown
     engine, a workload nothing names, a --since that is no version)

Colour is used only on a terminal and never when NO_COLOR is set; a progress
indicator shows on a terminal when a build takes more than a second (never
when CI is set).";

/// `findings --version`: the version, and the commit it was built from
/// where the build knew it (see build.rs).
pub(crate) const VERSION: &str = if env!("FINDINGS_COMMIT").is_empty() {
    env!("CARGO_PKG_VERSION")
} else {
    concat!(
        env!("CARGO_PKG_VERSION"),
        " (commit ",
        env!("FINDINGS_COMMIT"),
        ")"
    )
};

#[derive(Parser)]
#[command(
    name = "findings",
    version = VERSION,
    about = "Build a static site of evidence-backed findings about serving open models",
    after_help = EXIT_STATUS
)]
pub(crate) struct Cli {
    /// Print only errors.
    #[arg(long, short, global = true, conflicts_with = "verbose")]
    pub(crate) quiet: bool,
    /// Print more: the time of each build stage, the files that changed.
    #[arg(long, short, global = true)]
    pub(crate) verbose: bool,
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Start a new site: site.yaml, an example finding (a draft), data/runs/,
    /// a README, .gitignore and the GitHub Actions workflows.
    #[command(after_help = "\
Writes into DIR (made if missing; default: the current folder): site.yaml
with the title, the base URL, the four standard groups and the engines;
findings/example-finding.md, a draft that is not published until edited;
data/runs/; README.md with the commands that matter; .gitignore (public/);
and .github/workflows/ with the publishing, answering and audit workflows
of docs/workflows/, filled in for this site. A file already there (a
README of a fresh clone) is kept. Refuses, writing nothing, a folder that
already has site.yaml or records. Then `findings serve --root DIR`.")]
    Init {
        /// The folder of the new site.
        #[arg(default_value = ".")]
        dir: PathBuf,
        /// An engine the findings are about, by id (repeat it for more;
        /// default: vllm, sglang, tensorrt-llm and llama-cpp, the engines
        /// findings knows by id). Another id gets its id as its name.
        #[arg(long = "engine", value_name = "ID")]
        engines: Vec<String>,
        /// The site's title.
        #[arg(long, default_value = findings::init::DEFAULT_TITLE)]
        title: String,
        /// Where the site will be published (a placeholder otherwise:
        /// https://example.org/).
        #[arg(long, value_name = "URL")]
        base_url: Option<String>,
    },
    /// Validate the findings folder and report every problem, writing nothing.
    #[command(after_help = "\
Warnings include every run a check flags: a finding's advice applied to the
run's data (docs/checks.md). With --strict they fail the command, for CI.")]
    Check {
        /// The site folder (holds site.yaml, findings/, data/).
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Output format of the diagnostics.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Fail (exit 1) on warnings too: a flagged run, a list a wrapped
        /// line starts, a file whose model is not the run's.
        #[arg(long)]
        strict: bool,
    },
    /// Check, then render the site into the output folder (built aside, then swapped in).
    #[command(after_help = "\
One process at a time writes an output folder: build holds a lock on it
(the file .<name>.lock beside it) from its start to its end, and exits 1,
touching nothing, while another build or serve holds it.")]
    Build {
        /// The site folder (holds site.yaml, findings/, data/).
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Where to write the site (default: <root>/public).
        #[arg(long)]
        output: Option<PathBuf>,
        /// Publish under this address instead of site.yaml's base_url.
        #[arg(long)]
        base_url: Option<String>,
        /// Include draft findings.
        #[arg(long)]
        drafts: bool,
        /// Output format of the diagnostics.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Build, serve the site on 127.0.0.1, and rebuild and reload pages when a record changes.
    #[command(after_help = "\
The site is built into a temporary folder (removed when serve stops) with
base_url set to the local address, so public/ is never overwritten with a
site that links to 127.0.0.1. Changes under findings/, data/, templates/,
static/ and to site.yaml rebuild it; open pages reload. When a record has
errors, they are printed here and shown over the page in the browser, and
the last good site is still served. Stop with Ctrl-C.

With --output DIR, serve holds a lock on DIR (the file .<name>.lock beside
it) until it stops, so no other build or serve writes it meanwhile; one that
tries exits 1 naming this server.")]
    Serve {
        /// The site folder (holds site.yaml, findings/, data/).
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// The port on 127.0.0.1; 0 picks a free one.
        #[arg(long, default_value_t = 1111)]
        port: u16,
        /// Open the home page in the default browser.
        #[arg(long)]
        open: bool,
        /// Build into this folder instead of a temporary one (its contents are replaced).
        #[arg(long)]
        output: Option<PathBuf>,
        /// Build with this base_url instead of the local address.
        #[arg(long)]
        base_url: Option<String>,
        /// Include draft findings.
        #[arg(long)]
        drafts: bool,
    },
    /// List findings, optionally those concerning an engine version, with each one's state for it.
    List {
        /// The site folder.
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Only findings with an entry for this engine id (e.g. vllm).
        #[arg(long)]
        engine: Option<String>,
        /// With --engine: the version to report states for (any version, listed or not).
        #[arg(long, requires = "engine")]
        version: Option<String>,
        /// Only this group id.
        #[arg(long)]
        group: Option<String>,
        /// Only this status (open, fixed, mitigated, advice).
        #[arg(long)]
        status: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ListFormat::Table)]
        format: ListFormat,
    },
    /// Check the engine versions a deployment pins against the findings:
    /// exit 1 when a finding at or above --fail-on applies, 2 when the
    /// audit cannot be done (a pin that names no version, a source that
    /// cannot be read).
    Audit {
        /// Files that pin engine versions: requirements files and `pip
        /// freeze` output (`-` reads standard input), uv.lock,
        /// pyproject.toml, Dockerfiles, compose files and Kubernetes
        /// manifests.
        files: Vec<PathBuf>,
        /// An engine version to check as well, as ID=VERSION (e.g.
        /// vllm=0.30); repeat for more. It also stands in for a pin of the
        /// same engine that names no version.
        #[arg(long = "engine", value_name = "ID=VERSION")]
        engines: Vec<String>,
        /// Check against a published site instead of --root: its address
        /// (ending in /), the address or path of its findings.json, or a
        /// built site's folder.
        #[arg(long, value_name = "URL|PATH", conflicts_with = "root")]
        from: Option<String>,
        /// The site folder whose records to check against.
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = AuditFormat::Table)]
        format: AuditFormat,
        /// The states that fail the run: affected, in-range (affected or
        /// in range) or never. Seen, clean, fixed, mitigated and unknown
        /// never fail it.
        #[arg(long, value_enum, default_value_t = FailOn::InRange)]
        fail_on: FailOn,
    },
    /// The findings a benchmark falls into, before it is published: read
    /// the files a benchmark tool wrote as one run, apply the checks of
    /// the findings' advice, and print each flag with the advice, "What to
    /// do" and permanent address of the findings that name its check. Exit
    /// 1 when a check flags, 2 when the lint cannot be done.
    #[command(after_help = "\
The files are read as `findings import` reads them (vllm bench serve,
SGLang, TensorRT-LLM, genai-perf, AIPerf, llama-bench, guidellm, inferlint
run folders, and the console reports pasted into a text); nothing is
written. The files and run folders named are one run, a pasted text of
several reports a setup per report; a folder of run folders is linted run
folder by run folder. --from-issue reads a GitHub issue's body and comments
(gh issue view N --json title,body,comments,url, or a webhook payload of an
issues or issue_comment event) and names each report by where it was found
(\"comment 3, second report\"); an issue that holds no report exits 0, and
--format github-comment then prints nothing. The checks are in
docs/checks.md.")]
    Lint {
        /// Result files, inferlint run folders, folders of run folders,
        /// and texts holding the tools' console reports; `-` reads
        /// standard input.
        #[arg(required_unless_present = "from_issue")]
        inputs: Vec<PathBuf>,
        /// A GitHub issue, as `gh issue view N --json
        /// title,body,comments,url` writes it or as a webhook event payload
        /// (`issues`, `issue_comment`); `-` reads standard input. Its
        /// reports are the run.
        #[arg(long, value_name = "FILE", conflicts_with = "inputs")]
        from_issue: Option<PathBuf>,
        /// The engine measured, for files that do not record it.
        #[arg(long)]
        engine: Option<String>,
        /// Its version, for files that do not record it.
        #[arg(long)]
        version: Option<String>,
        /// Take the findings from a published site instead of --root: its
        /// address (ending in /), the address or path of its findings.json,
        /// or a built site's folder.
        #[arg(long, value_name = "URL|PATH", conflicts_with = "root")]
        from: Option<String>,
        /// The site folder whose findings to check against.
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = LintFormat::Table)]
        format: LintFormat,
    },
    /// Set runs side by side: the runs and result files named, matched by
    /// workload (model, input and output lengths, concurrency, request
    /// rate), led by the verdict in words (worse or better beyond noise,
    /// within noise, untested, the same: each counted apart), then each
    /// metric's value per side, its change from the first (the baseline)
    /// in percent, and whether it is beyond the noise between runs, with
    /// what each side's server ran. Exit 1 when the sides share no
    /// workload, 2 when the comparison cannot be done.
    #[command(after_help = "\
Each input is a run's id (its folder under data/runs/ of --root), whose
setups are sides, or a result file or run folder read where it is (as
`findings lint` reads it), a side of its own. Two or more measurements of
one workload on one side are repeats: their range, in percent of their
mean, is the noise a change must pass; --noise (else a rule of the site's
`noise`) states a bound instead. A tool's own ± only widens it. With
neither, a change is untested and says its size. Beyond noise a change is
better or worse by its metric (throughput higher, latency lower); within
it, neither. Lengths match on what
the client was asked for where the files record it (random_input_len,
random_output_len), else on the measured means within 10%. A side whose
server ran fewer requests at once than asked (its run folder's series says
so) is marked, citing the findings of the check concurrency-achieved about
its engine (or about none) from the records of --root or --from, and the
KV cache its requests asked for against its pool where that explains it; a
side whose run lost requests is flagged. A pasted text of several console reports
(a file, or - for standard input) is a side per report; --from-issue makes
a side of each report of a GitHub issue, after the inputs named. See
docs/compare.md.")]
    Compare {
        /// Run ids, result files, run folders or pasted texts; `-` reads
        /// standard input. The first is the baseline.
        #[arg(required_unless_present = "from_issue", value_name = "RUN|FILE")]
        inputs: Vec<String>,
        /// A GitHub issue (`gh issue view N --json
        /// title,body,comments,url`, or a webhook event payload; `-` reads
        /// standard input): each report in it is a side, named by where it
        /// was found.
        #[arg(long, value_name = "FILE")]
        from_issue: Option<std::path::PathBuf>,
        /// A metric to compare (repeat for several): output_throughput,
        /// request_throughput, tokens_per_s, ttft_ms_p50, ttft_ms_p99,
        /// itl_ms_p50, itl_ms_p99, tpot_ms_p50, tpot_ms_p99, e2el_ms_p50,
        /// e2el_ms_p99. Default: every one the sides measured.
        #[arg(long = "metric", value_name = "M")]
        metrics: Vec<String>,
        /// The engine measured, for files that do not record it.
        #[arg(long)]
        engine: Option<String>,
        /// Its version, for files that do not record it.
        #[arg(long)]
        version: Option<String>,
        /// The run-to-run noise in percent, the one test of every change
        /// (a change inside ±PCT% is within noise).
        #[arg(long, value_name = "PCT")]
        noise: Option<f64>,
        /// The sides measured one workload, though their models or
        /// lengths differ (generation that stops at an end of text makes
        /// two runs of one command measure different output lengths):
        /// measurements match on concurrency and rate alone, and the
        /// output says so.
        #[arg(long)]
        same_workload: bool,
        /// Cite the findings of a published site beside a side that ran
        /// fewer requests at once than asked, instead of the records of
        /// --root: its address (ending in /), the address or path of its
        /// findings.json, or a built site's folder.
        #[arg(long, value_name = "URL|PATH")]
        from: Option<String>,
        /// The site folder whose runs the ids name (and whose findings
        /// are cited, where it has them).
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = CompareFormat::Table)]
        format: CompareFormat,
    },
    /// The workloads measured on two versions or more, across versions:
    /// each series (an engine on its hardware), its points (value and
    /// noise, the run, what its checks flag) and the change between
    /// consecutive versions (better or worse, beyond or within noise, or
    /// not comparable), led by the verdict. Exit 1 when a regression is
    /// found and --fail-on regression, 2 when the trends cannot be said.
    #[command(after_help = "\
A workload is the model, the input and output lengths asked for (else
measured, within 10%), the concurrency or request rate, the tool's own test
(llama-bench's pp512, tg128 and pp512 @ d4096 are three) and its settings,
and the hardware where recorded: other hardware is another series. A change
is beyond noise only where it exceeds the noise between runs: a bound stated
(--threshold, site.yaml's `noise`), the spread of repeated runs of one
version, or the series' history (the 5 versions before, z 3); a tool's own ±
only widens it. With none of these a change is untested, and says its size.
Beyond noise and worse is a regression. A point whose run a check flags
(lost requests, fewer requests run at once than asked) is shown with its
flag and left out of its version's
value where the version has others. A change between setups that differ
beyond the version (another client, other launch flags) is not comparable.
A regression no finding cites comes with the `findings new` command that
starts one. See docs/trends.md; --format json is the site's workloads.json.")]
    Trends {
        /// Only this engine's series (an engine id of site.yaml).
        #[arg(long)]
        engine: Option<String>,
        /// Only this workload: its id (as in /workloads/<id>/), or text of
        /// its title (gpt-oss, pp512).
        #[arg(long)]
        workload: Option<String>,
        /// Only points at this version or later, and changes from it on.
        #[arg(long, value_name = "V")]
        since: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = TrendsFormat::Table)]
        format: TrendsFormat,
        /// What fails the run (exit 1): a regression, or never.
        #[arg(long, value_enum, default_value_t = TrendsFailOn::Never)]
        fail_on: TrendsFailOn,
        /// Judge every change by this bound in percent instead (for a CI
        /// job that accepts single runs): a change beyond ±PCT is a
        /// regression or an improvement, one within it noise.
        #[arg(long, value_name = "PCT")]
        threshold: Option<f64>,
        /// The site folder.
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// Print one finding's facts and permanent URL.
    Show {
        /// The finding number (7 or F7).
        id: String,
        /// The site folder.
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// Start a new finding with the next free id, today's date and a body skeleton.
    New {
        /// The finding's title, as a sentence.
        title: String,
        /// Group id from site.yaml.
        #[arg(long)]
        group: String,
        /// Engine id from site.yaml.
        #[arg(long)]
        engine: String,
        /// A version found affected.
        #[arg(long)]
        version: Option<String>,
        /// Record --version as seen, not affected: the problem showed while
        /// it ran, but it does not lie in the engine (a grader, a client, a
        /// chat template, a way of measuring).
        #[arg(long, requires = "version")]
        seen: bool,
        /// The site folder.
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// Make a run of the files benchmark tools wrote: copy them under the
    /// run's raw/ folder (credentials and generated texts taken out) and
    /// write its run.yaml, with tables derived from them and default charts.
    #[command(after_help = "\
Formats are told apart by their content: vllm bench serve, throughput and
latency (and the older benchmark_serving.py), SGLang bench_serving and
bench_one_batch_server, TensorRT-LLM benchmark_serving and trtllm-bench,
genai-perf, AIPerf, llama-bench (json, jsonl, csv), guidellm (JSON, YAML),
and inferlint run folders. The engine and version come from the files
where they record them (SGLang's server_info, llama-bench's build), else
from --engine and --version. Run it again with more files to add them;
--force writes run.yaml anew. Nothing is overwritten silently. See
docs/import.md.")]
    Import {
        /// The run's id (its folder under data/runs/; lowercase letters,
        /// digits and '-').
        id: String,
        /// Result files, inferlint run folders and texts holding the
        /// tools' console reports, to import; `-` reads standard input (a
        /// report pasted or piped in).
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// The engine measured, an engine id from site.yaml, for files that
        /// do not record it.
        #[arg(long)]
        engine: Option<String>,
        /// Its version, for files that do not record it.
        #[arg(long)]
        version: Option<String>,
        /// The setup's name on the run's page (default: the engine's name
        /// and the version, "vLLM 0.30"); tells two setups of one version
        /// apart.
        #[arg(long)]
        setup: Option<String>,
        /// The run's title (default: made from its setups, client and model).
        #[arg(long)]
        title: Option<String>,
        /// The model served (default: the one the files name).
        #[arg(long)]
        model: Option<String>,
        /// The hardware (default: the one the files name).
        #[arg(long)]
        hardware: Option<String>,
        /// The day the run was made, YYYY-MM-DD (default: the latest day
        /// the files record; never today's date).
        #[arg(long)]
        date: Option<String>,
        /// Write run.yaml anew, and replace kept copies that differ.
        #[arg(long)]
        force: bool,
        /// Keep the generated texts of each request in the copies (they
        /// are dropped by default: they can be large and hold prompts).
        #[arg(long)]
        keep_texts: bool,
        /// The site folder.
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// Start a new run folder with a run.yaml and a CSV table to fill in.
    NewRun {
        /// The run id (lowercase letters, digits and '-').
        id: String,
        /// Engine id from site.yaml.
        #[arg(long)]
        engine: String,
        /// Engine version measured.
        #[arg(long)]
        version: String,
        /// The site folder.
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum ListFormat {
    Table,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum AuditFormat {
    /// A table for a terminal.
    Table,
    /// JSON (docs/json.md).
    Json,
    /// Markdown for an issue, a pull-request comment or a job summary.
    Markdown,
    /// GitHub Actions workflow commands: annotations on the pinning lines.
    Github,
}

/// The formats of `findings lint`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum LintFormat {
    /// A table for a terminal.
    Table,
    /// JSON (docs/checks.md).
    Json,
    /// Markdown for a pull-request comment or a job summary.
    Markdown,
    /// GitHub Actions workflow commands: annotations on the result files.
    Github,
    /// One comment that answers a GitHub issue's pasted reports: the
    /// reports read, what the findings say of them and what they cannot
    /// tell; nothing when no report was read.
    GithubComment,
}

/// The formats of `findings compare`.
#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum CompareFormat {
    /// A table for a terminal.
    Table,
    /// JSON, every value with every digit (docs/compare.md).
    Json,
    /// Markdown for an issue or a pull request.
    Markdown,
}

/// The formats of `findings trends`.
#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum TrendsFormat {
    /// A table for a terminal.
    Table,
    /// JSON: the shape of the site's workloads.json (docs/json.md).
    Json,
    /// Markdown for a pull request, an issue or a job summary.
    Markdown,
    /// GitHub Actions workflow commands: an error per regression.
    Github,
}

/// What fails `findings trends`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum TrendsFailOn {
    /// A change beyond noise in the worse direction.
    Regression,
    /// Nothing: report only.
    Never,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum FailOn {
    /// Tested versions found affected.
    Affected,
    /// Affected, and untested versions inside the known range.
    InRange,
    /// Nothing: report only.
    Never,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum Format {
    Text,
    Json,
}
