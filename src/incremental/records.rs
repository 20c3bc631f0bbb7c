//! The records a session keeps between loads: each finding and run as
//! parsed, with the stamps of the files it came from.

/// The parsed records of the last load (see [`crate::load::LoadCache`]).
#[derive(Default)]
pub(crate) struct Records(pub(crate) crate::load::LoadCache);
