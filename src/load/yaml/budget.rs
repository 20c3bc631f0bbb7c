//! The budget a YAML document is built within: counts values, text and
//! nesting while `serde_yaml` parses, so that aliases cannot expand a small
//! file into gigabytes and deep nesting stops with a message. Takes the
//! parser's events; hands [`super::parse`] a [`Value`] or a limit's message.

use super::{
    Mapping, Value, MAX_YAML_DEPTH, MAX_YAML_TEXT, MAX_YAML_VALUES, TOO_DEEP, TOO_MANY_VALUES,
    TOO_MUCH_TEXT,
};

/// What one document may still hold (see [`MAX_YAML_VALUES`] and friends).
#[derive(Default)]
pub(super) struct Budget {
    values: std::cell::Cell<usize>,
    text: std::cell::Cell<usize>,
    depth: std::cell::Cell<usize>,
}

impl Budget {
    fn value<E: serde::de::Error>(&self) -> Result<(), E> {
        let n = self.values.get() + 1;
        self.values.set(n);
        if n > MAX_YAML_VALUES {
            return Err(E::custom(TOO_MANY_VALUES));
        }
        Ok(())
    }

    fn text<E: serde::de::Error>(&self, s: &str) -> Result<(), E> {
        self.value()?;
        let n = self.text.get() + s.len();
        self.text.set(n);
        if n > MAX_YAML_TEXT {
            return Err(E::custom(TOO_MUCH_TEXT));
        }
        Ok(())
    }

    fn enter<E: serde::de::Error>(&self) -> Result<(), E> {
        self.value()?;
        let d = self.depth.get() + 1;
        self.depth.set(d);
        if d > MAX_YAML_DEPTH {
            return Err(E::custom(TOO_DEEP));
        }
        Ok(())
    }

    fn leave(&self) {
        self.depth.set(self.depth.get().saturating_sub(1));
    }
}

/// Builds a [`Value`] like serde_yaml's own `Deserialize`, within a budget.
pub(super) struct ValueSeed<'b>(pub(super) &'b Budget);

impl<'de> serde::de::DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for ValueSeed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_bool<E: serde::de::Error>(self, b: bool) -> Result<Value, E> {
        self.0.value()?;
        Ok(Value::Bool(b))
    }

    fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<Value, E> {
        self.0.value()?;
        Ok(Value::Number(n.into()))
    }

    fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<Value, E> {
        self.0.value()?;
        Ok(Value::Number(n.into()))
    }

    fn visit_f64<E: serde::de::Error>(self, n: f64) -> Result<Value, E> {
        self.0.value()?;
        Ok(Value::Number(n.into()))
    }

    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Value, E> {
        self.0.text(s)?;
        Ok(Value::String(s.to_string()))
    }

    fn visit_string<E: serde::de::Error>(self, s: String) -> Result<Value, E> {
        self.0.text(&s)?;
        Ok(Value::String(s))
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Value, E> {
        self.0.value()?;
        Ok(Value::Null)
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<Value, E> {
        self.visit_unit()
    }

    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        serde::de::DeserializeSeed::deserialize(self, d)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.0.enter()?;
        let mut items = Vec::new();
        while let Some(v) = seq.next_element_seed(ValueSeed(self.0))? {
            items.push(v);
        }
        self.0.leave();
        Ok(Value::Sequence(items))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        use serde::de::Error;
        self.0.enter()?;
        let mut m = Mapping::new();
        while let Some(k) = map.next_key_seed(ValueSeed(self.0))? {
            let v = map.next_value_seed(ValueSeed(self.0))?;
            if m.contains_key(&k) {
                let key = match &k {
                    Value::String(s) => format!("with key {s:?}"),
                    Value::Number(n) => format!("with key {n}"),
                    Value::Bool(b) => format!("with key `{b}`"),
                    Value::Null => "with null key".to_string(),
                    _ => "in YAML map".to_string(),
                };
                return Err(A::Error::custom(format!("duplicate entry {key}")));
            }
            m.insert(k, v);
        }
        self.0.leave();
        Ok(Value::Mapping(m))
    }

    fn visit_enum<A: serde::de::EnumAccess<'de>>(self, data: A) -> Result<Value, A::Error> {
        use serde::de::{Error, VariantAccess};
        self.0.value()?;
        let (tag, contents): (String, _) = data.variant()?;
        if tag.is_empty() {
            return Err(A::Error::custom("empty YAML tag is not allowed"));
        }
        let value = contents.newtype_variant_seed(ValueSeed(self.0))?;
        Ok(Value::Tagged(Box::new(serde_yaml::value::TaggedValue {
            tag: serde_yaml::value::Tag::new(tag),
            value,
        })))
    }
}
