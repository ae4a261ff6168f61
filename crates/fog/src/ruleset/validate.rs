//! Semantic checks on a ruleset that parsed: cross-references, ranges and the
//! invariants the engine relies on (a d6 table covers 1 to 6, every territory
//! has the compulsory pieces RULES 4 promises). Each failure names its path.

use super::Ruleset;

type Failure = (String, String);

fn fail<T>(path: impl Into<String>, message: impl Into<String>) -> Result<T, Failure> {
    Err((path.into(), message.into()))
}

fn check_faces<'a>(path: &str, keys: impl Iterator<Item = &'a String>) -> Result<(), Failure> {
    let mut seen: Vec<&String> = keys.collect();
    seen.sort();
    let want: Vec<String> = (1..=6).map(|f| f.to_string()).collect();
    if seen
        .iter()
        .map(|s| s.as_str())
        .ne(want.iter().map(String::as_str))
    {
        return fail(
            path,
            "must have exactly one entry for each die face \"1\" to \"6\"",
        );
    }
    Ok(())
}

impl Ruleset {
    pub(super) fn validate(&self) -> Result<(), Failure> {
        if self.troop_types.is_empty() {
            return fail("troop_types", "at least one troop type is needed");
        }
        if self.initiative.dice == 0 {
            return fail("initiative.dice", "must be at least 1");
        }
        for (i, band) in self.initiative.mounted_bases.iter().enumerate() {
            if band.max.is_some_and(|max| max < band.min) {
                return fail(
                    format!("initiative.mounted_bases[{i}].max"),
                    "must not be below min",
                );
            }
        }
        for (id, t) in &self.terrain_types {
            if t.selections == 0 {
                return fail(
                    format!("terrain_types.{id}.selections"),
                    "must be at least 1",
                );
            }
            if let super::Visibility::Blocks { distance }
            | super::Visibility::LightFoot { distance }
            | super::Visibility::Crest { distance } = t.visibility
                && distance <= 0.0
            {
                return fail(
                    format!("terrain_types.{id}.visibility.distance"),
                    "must be positive",
                );
            }
        }
        self.validate_territories()?;
        let sel = &self.selection;
        if sel.per_player_min > sel.per_player_max {
            return fail("selection.per_player_min", "must not exceed per_player_max");
        }
        for (i, id) in sel.non_initiative_forbidden.iter().enumerate() {
            if self.terrain(id).is_none() {
                return fail(
                    format!("selection.non_initiative_forbidden[{i}]"),
                    format!("unknown terrain type \"{id}\""),
                );
            }
        }
        for (i, group) in sel.initiative_not_both.iter().enumerate() {
            for (j, id) in group.iter().enumerate() {
                if self.terrain(id).is_none() {
                    return fail(
                        format!("selection.initiative_not_both[{i}][{j}]"),
                        format!("unknown terrain type \"{id}\""),
                    );
                }
            }
        }
        let sizes = &self.piece_sizes;
        if sizes.large.max_span <= sizes.normal.max_span {
            return fail(
                "piece_sizes.large.max_span",
                "must exceed piece_sizes.normal.max_span",
            );
        }
        check_faces("placement.results", self.placement.results.keys())?;
        check_faces("river.going", self.river.going.keys())?;
        for (i, id) in self.placement.spacing_exempt_near.iter().enumerate() {
            if self.terrain(id).is_none() {
                return fail(
                    format!("placement.spacing_exempt_near[{i}]"),
                    format!("unknown terrain type \"{id}\""),
                );
            }
        }
        self.validate_adjustment()?;
        if self.deployment.batch_fraction == 0 {
            return fail("deployment.batch_fraction", "must be at least 1");
        }
        if self
            .terrain(&self.deployment.camp.allowed_if_wholly_in)
            .is_none()
        {
            return fail(
                "deployment.camp.allowed_if_wholly_in",
                "unknown terrain type",
            );
        }
        if !self
            .troop_types
            .contains_key(&self.deployment.ambush.dummy_as)
        {
            return fail("deployment.ambush.dummy_as", "unknown troop type");
        }
        let [w, d] = self.deployment.fortifications.footprint;
        let [cw, cd] = self.deployment.camp.footprint;
        if w <= 0.0 || d <= 0.0 {
            return fail("deployment.fortifications.footprint", "must be positive");
        }
        if cw <= 0.0 || cd <= 0.0 {
            return fail("deployment.camp.footprint", "must be positive");
        }
        let mut rank = self.who_moves_first.c_in_c_rank.clone();
        rank.sort();
        if rank != ["field", "inspired", "troop"] {
            return fail(
                "who_moves_first.c_in_c_rank",
                "must list \"inspired\", \"field\" and \"troop\" once each",
            );
        }
        for (name, rule) in [
            ("elite", &self.quality_rerolls.elite),
            ("superior", &self.quality_rerolls.superior),
            ("average", &self.quality_rerolls.average),
            ("poor", &self.quality_rerolls.poor),
        ] {
            if let Some(j) = rule.reroll.iter().position(|f| !(1..=6).contains(f)) {
                return fail(
                    format!("quality_rerolls.{name}.reroll[{j}]"),
                    "a die face is 1 to 6",
                );
            }
        }
        if let Some(t) = &self.road.must_touch
            && self.terrain(t).is_none()
        {
            return fail("road.must_touch", format!("unknown terrain type \"{t}\""));
        }
        for step in [
            "initiative",
            "territory",
            "selection",
            "placement",
            "adjustment",
        ] {
            if self.help(step).is_empty() {
                return fail(format!("help.{step}"), "help text is missing");
            }
        }
        Ok(())
    }

    fn validate_territories(&self) -> Result<(), Failure> {
        if self.territories.is_empty() {
            return fail("territories", "at least one territory type is needed");
        }
        let is_group = |g: &str| {
            self.terrain_types
                .keys()
                .any(|id| self.count_group(id) == g)
        };
        for (tid, territory) in &self.territories {
            for group in territory.max.keys() {
                if !is_group(group) {
                    return fail(
                        format!("territories.{tid}.max.{group}"),
                        format!("\"{group}\" is not a terrain type or count group"),
                    );
                }
            }
            let mut compulsory = 0;
            for (group, &min) in &territory.min {
                let max = territory.max.get(group).copied().unwrap_or(0);
                if min > max {
                    return fail(
                        format!("territories.{tid}.min.{group}"),
                        format!("minimum {min} exceeds the maximum {max}"),
                    );
                }
                if self.group_members(group).count() != 1 {
                    return fail(
                        format!("territories.{tid}.min.{group}"),
                        "a compulsory piece must name a single terrain type",
                    );
                }
                compulsory += min;
            }
            if compulsory != self.selection.compulsory_pieces {
                return fail(
                    format!("territories.{tid}.min"),
                    format!(
                        "has {compulsory} compulsory pieces; selection.compulsory_pieces says {}",
                        self.selection.compulsory_pieces
                    ),
                );
            }
        }
        Ok(())
    }

    fn validate_adjustment(&self) -> Result<(), Failure> {
        let results = &self.adjustment.results;
        if results.is_empty() {
            return fail("adjustment.results", "at least one band is needed");
        }
        for (i, r) in results.iter().enumerate() {
            let path = format!("adjustment.results[{i}]");
            if let Some(max) = r.max
                && max < r.min
            {
                return fail(format!("{path}.max"), "must not be below min");
            }
            let slides = r.allows.contains(&super::AdjustmentOption::Slide);
            if slides != r.slide_max.is_some() {
                return fail(
                    format!("{path}.slide_max"),
                    "is needed exactly when the band allows a slide",
                );
            }
            if let Some(next) = results.get(i + 1) {
                if r.max.map(|m| m + 1) != Some(next.min) {
                    return fail(
                        format!("adjustment.results[{}].min", i + 1),
                        "bands must follow each other with no gap or overlap",
                    );
                }
            } else if r.max.is_some() {
                return fail(
                    format!("{path}.max"),
                    "the last band must be open-ended (no max)",
                );
            }
        }
        Ok(())
    }
}
