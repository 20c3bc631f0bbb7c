//! The model a run served, as titles and headlines name it: a model served
//! from a local folder (`/models/Qwen3.8-27B-W4A16-AutoRound`) is named by
//! its folder (`Qwen3.8-27B-W4A16-AutoRound`); a hub id (`Qwen/Qwen3-8B`)
//! and any other name are kept as they are. The run's `model` field, and
//! the facts its files give, keep the path.

use super::Run;
use std::borrow::Cow;

/// Whether `s` starts like a path on a disk: `/`, `~/`, `./`, `../`, a
/// drive (`C:\`, `C:/`) or a backslash.
fn local(s: &str) -> bool {
    let b = s.as_bytes();
    s.starts_with('/')
        || s.starts_with("~/")
        || s.starts_with("./")
        || s.starts_with("../")
        || s.starts_with('\\')
        || (b.len() > 2
            && b[0].is_ascii_alphabetic()
            && b[1] == b':'
            && matches!(b[2], b'\\' | b'/'))
}

/// `model` named without a local path: the last folder of a path that
/// starts it, with what follows the path (a note in brackets) kept.
pub fn model_name(model: &str) -> Cow<'_, str> {
    let model = model.trim();
    if !local(model) {
        return Cow::Borrowed(model);
    }
    let (path, rest) = match model.find(char::is_whitespace) {
        Some(i) => model.split_at(i),
        None => (model, ""),
    };
    let name = path
        .split(['/', '\\'])
        .rev()
        .find(|p| !p.is_empty() && *p != "." && *p != ".." && *p != "~")
        .unwrap_or(path);
    if rest.is_empty() {
        Cow::Borrowed(name)
    } else {
        Cow::Owned(format!("{name}{rest}"))
    }
}

impl Run {
    /// The model served, named without a local path (see [`model_name`]).
    pub fn model_name(&self) -> Option<Cow<'_, str>> {
        self.model.as_deref().map(model_name)
    }

    /// The run's title as pages head it: with the local path of its model,
    /// where the title spells it out, replaced by the model's name.
    pub fn shown_title(&self) -> Cow<'_, str> {
        match self.model.as_deref().map(str::trim) {
            Some(m) if local(m) && self.title.contains(m) => {
                Cow::Owned(self.title.replace(m, &model_name(m)))
            }
            _ => Cow::Borrowed(&self.title),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::model_name;

    #[test]
    fn a_local_path_is_named_by_its_folder_and_a_hub_id_is_kept() {
        for (model, name) in [
            (
                "/models/Qwen3.8-27B-W4A16-AutoRound",
                "Qwen3.8-27B-W4A16-AutoRound",
            ),
            ("/models/Qwen3-8B/", "Qwen3-8B"),
            ("~/weights/Llama-3.1-8B", "Llama-3.1-8B"),
            ("./ckpt/qwen", "qwen"),
            ("C:\\models\\Qwen3-8B", "Qwen3-8B"),
            ("/models/Qwen3-8B (fp8 KV cache)", "Qwen3-8B (fp8 KV cache)"),
            ("Qwen/Qwen3-8B", "Qwen/Qwen3-8B"),
            (
                "gittensor-model-hub/Qwen3.8-27B-NVFP4-RTX5090 (Qwen3.8-27B, NVFP4 weights)",
                "gittensor-model-hub/Qwen3.8-27B-NVFP4-RTX5090 (Qwen3.8-27B, NVFP4 weights)",
            ),
            ("Qwen3.8-27B", "Qwen3.8-27B"),
        ] {
            assert_eq!(model_name(model), name, "{model}");
        }
    }
}
