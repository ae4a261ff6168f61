//! Finds the line of a value in JSON text from its dotted path
//! (`territories.hilly.max.forest`, `adjustment.results[2].min`), and the
//! error of a data file that names its field and line.
//!
//! serde reports lines for type errors but not for values that parse and
//! then fail a semantic check; this walks the text so those errors can name a
//! line too. It only runs on text that already parsed as JSON.

use crate::store::StoreError;

/// A data file (card set, scenario, roster) that cannot be used: the field
/// at fault and its line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}{}", line.map(|l| format!(", line {l}")).unwrap_or_default())]
pub struct DataError {
    pub field: String,
    pub message: String,
    pub line: Option<usize>,
}

impl DataError {
    /// The error of `field` in `text`; a missing field has no line, so its
    /// nearest enclosing object's line stands in.
    pub fn at(text: &str, field: String, message: String) -> DataError {
        let mut path = field.as_str();
        let mut line = line_of(text, path);
        while line.is_none()
            && let Some(i) = path.rfind(['.', '['])
        {
            path = &path[..i];
            line = line_of(text, path);
        }
        DataError {
            line,
            field,
            message,
        }
    }
}

impl From<StoreError> for DataError {
    fn from(e: StoreError) -> DataError {
        DataError {
            field: "file".into(),
            message: e.message,
            line: None,
        }
    }
}

/// The 1-based line where `path` starts in `text`, if it can be found.
pub fn line_of(text: &str, path: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut pos = skip_ws(bytes, 0);
    for segment in segments(path) {
        pos = match segment {
            Segment::Key(key) => find_key(bytes, pos, &key)?,
            Segment::Index(i) => find_index(bytes, pos, i)?,
        };
    }
    Some(text[..pos].matches('\n').count() + 1)
}

enum Segment {
    Key(String),
    Index(usize),
}

fn segments(path: &str) -> Vec<Segment> {
    let mut out = Vec::new();
    for part in path.split('.') {
        let (key, rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !key.is_empty() {
            out.push(Segment::Key(key.to_string()));
        }
        for idx in rest.split('[').filter(|s| !s.is_empty()) {
            if let Ok(i) = idx.trim_end_matches(']').parse() {
                out.push(Segment::Index(i));
            }
        }
    }
    out
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The index just past the string that starts at `i` (which is a quote).
fn skip_string(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    i
}

/// The index just past the value that starts at `i`.
fn skip_value(b: &[u8], i: usize) -> usize {
    let i = skip_ws(b, i);
    match b.get(i) {
        Some(b'"') => skip_string(b, i),
        Some(b'{') | Some(b'[') => {
            let mut depth = 0usize;
            let mut j = i;
            while j < b.len() {
                match b[j] {
                    b'"' => {
                        j = skip_string(b, j);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return j + 1;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            j
        }
        _ => {
            let mut j = i;
            while j < b.len() && !matches!(b[j], b',' | b'}' | b']') {
                j += 1;
            }
            j
        }
    }
}

/// In the object starting at `i`, the start of the value under `key`.
fn find_key(b: &[u8], i: usize, key: &str) -> Option<usize> {
    let mut j = skip_ws(b, i);
    if b.get(j) != Some(&b'{') {
        return None;
    }
    j += 1;
    loop {
        j = skip_ws(b, j);
        if b.get(j) != Some(&b'"') {
            return None;
        }
        let end = skip_string(b, j);
        let name = std::str::from_utf8(&b[j + 1..end - 1]).ok()?;
        j = skip_ws(b, end);
        if b.get(j) != Some(&b':') {
            return None;
        }
        let value = skip_ws(b, j + 1);
        if name == key {
            return Some(value);
        }
        j = skip_ws(b, skip_value(b, value));
        if b.get(j) != Some(&b',') {
            return None;
        }
        j += 1;
    }
}

/// In the array starting at `i`, the start of element `index`.
fn find_index(b: &[u8], i: usize, index: usize) -> Option<usize> {
    let mut j = skip_ws(b, i);
    if b.get(j) != Some(&b'[') {
        return None;
    }
    j += 1;
    for _ in 0..index {
        j = skip_ws(b, skip_value(b, j));
        if b.get(j) != Some(&b',') {
            return None;
        }
        j += 1;
    }
    Some(skip_ws(b, j))
}

#[cfg(test)]
mod tests {
    use super::line_of;

    #[test]
    fn finds_nested_keys_and_indexes() {
        let text = "{\n \"a\": {\n  \"b\": [1,\n {\"c\": 2}\n ]\n },\n \"d\": \"x\"\n}";
        assert_eq!(line_of(text, "a"), Some(2));
        assert_eq!(line_of(text, "a.b[1].c"), Some(4));
        assert_eq!(line_of(text, "d"), Some(7));
        assert_eq!(line_of(text, "a.zzz"), None);
    }
}
