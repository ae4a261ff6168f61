//! Calendar dates from the system clock, in UTC, for the printout's title
//! block and the list of autosaved battles (no time-zone data is needed).

/// Seconds since 1970-01-01 UTC now (0 if the clock is before it).
pub fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// "2026-11-22" for a day counted from 1970-01-01 (Howard Hinnant's
/// civil-from-days algorithm).
fn date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Today's date, "2026-11-22".
pub fn today() -> String {
    date((now() / 86_400) as i64)
}

/// "2026-11-22 13:05 UTC" for a time in seconds since 1970.
pub fn date_time(secs: u64) -> String {
    let minutes = secs / 60;
    format!(
        "{} {:02}:{:02} UTC",
        date((secs / 86_400) as i64),
        (minutes / 60) % 24,
        minutes % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(20_414), "2025-11-22");
        assert_eq!(date_time(1_763_820_300), "2025-11-22 14:05 UTC");
        assert_eq!(date(-1), "1969-12-31");
        assert_eq!(date(11_016), "2000-02-29");
    }
}
