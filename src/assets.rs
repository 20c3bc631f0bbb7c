//! The files the binary carries into every site, so that any folder builds
//! without copying them: the built-in static files (CSS and the browser
//! scripts) and the JSON Schemas of the record files. A site's own
//! `static/` files are copied over the built-in ones.

/// The built-in static files (CSS, JS), by name.
pub const STATIC: &[(&str, &str)] = &[
    ("style.css", include_str!("../static/style.css")),
    ("site.js", include_str!("../static/site.js")),
    ("versions.js", include_str!("../static/versions.js")),
    ("search.js", include_str!("../static/search.js")),
    ("filters.js", include_str!("../static/filters.js")),
    ("runs.js", include_str!("../static/runs.js")),
    ("your-version.js", include_str!("../static/your-version.js")),
];

/// The JSON Schemas of the record files, published under `schemas/`.
pub const SCHEMAS: &[(&str, &str)] = &[
    ("finding", include_str!("../schemas/finding.schema.json")),
    ("run", include_str!("../schemas/run.schema.json")),
    ("site", include_str!("../schemas/site.schema.json")),
    (
        "workloads",
        include_str!("../schemas/workloads.schema.json"),
    ),
];
