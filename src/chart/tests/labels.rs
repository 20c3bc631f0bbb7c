//! Tests of what charts call their columns: a column's `label` in the
//! legend, the axis titles and the summary, and a readable name made from
//! the column's name when it has none. Takes the fixtures of `tests.rs`;
//! hands on only pass or fail.

use super::{table, texts};
use crate::chart::{render, ChartInput};
use crate::record::ChartKind;
use std::collections::BTreeMap;

#[test]
fn legends_axes_and_the_summary_say_the_labels() {
    let mut t = table(
        "depth,ninfer_nvfp4,vllm_mtp3\n0,127.1,117.3\n4096,87.1,87.5",
        &[
            ("depth", "tokens"),
            ("ninfer_nvfp4", "tok/s"),
            ("vllm_mtp3", "tok/s"),
        ],
    );
    t.columns[1].label = Some("NInfer NVFP4".to_string());
    t.columns[0].label = Some("Context depth".to_string());
    let names: BTreeMap<String, String> = [("vllm", "vLLM"), ("ninfer", "NInfer")]
        .into_iter()
        .map(|(i, n)| (i.to_string(), n.to_string()))
        .collect();
    let s = super::spec(ChartKind::Line, "depth", &["ninfer_nvfp4", "vllm_mtp3"]);
    let c = render(&ChartInput {
        spec: &s,
        table: &t,
        engine_colors: &BTreeMap::new(),
        engine_names: &names,
    })
    .unwrap();
    let legend: Vec<&str> = c
        .svg
        .lines()
        .filter(|l| l.contains("class=\"plot-legend\""))
        .filter_map(|l| l.split('>').nth(1)?.split('<').next())
        .collect();
    // The label as written, and the name made readable without one.
    assert_eq!(legend, ["NInfer NVFP4", "vLLM mtp3"]);
    assert!(texts(&c.svg).contains(&"Context depth (tokens)".to_string()));
    assert_eq!(
        c.summary,
        "Line chart of tok/s against Context depth (tokens): NInfer NVFP4: 127.1 at 0, \
         87.1 at 4,096; vLLM mtp3: 117.3 at 0, 87.5 at 4,096."
    );
    assert!(!c.svg.contains("ninfer_nvfp4") && !c.svg.contains("vllm_mtp3"));
}
