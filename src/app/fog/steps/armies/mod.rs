//! The armies step (RULES 1): each side's player, army, allowed territory
//! types, commanders and roster of battle groups, with the initiative
//! modifiers it earns shown live (RULES 2). The form edits a draft; "Confirm"
//! sends it to the engine, which checks it. With his army each player sets
//! the passphrase that guards his secrets and his tag on the log, or
//! plainly chooses to play without one.

mod form;

use super::{MainAction, StepPanel};
use crate::app::file_dialog::FileAction;
use crate::app::fog::FogCommand;
use crate::app::passphrase::NewPassphrases;
use eframe::egui;
use form::{army_body, army_identity};
use muster::core::dice::Quality;
use muster::core::side::{Side, Sides};
use muster::fog::army::{Army, BattleGroup, Commander, CommanderQuality};
use muster::fog::battle::{Battle, Command};
use muster::fog::examples;

#[derive(Default)]
pub struct ArmiesPanel {
    /// The army shown: its form scrolls on its own (issue 39: North's
    /// opened where South's was scrolled, his name field out of sight).
    pub side: Option<Side>,
    drafts: Sides<Army>,
    /// The entered army each draft was last taken from.
    seen: Sides<Option<Army>>,
    passphrases: NewPassphrases,
    /// Where each seat is this frame, for setting a passphrase on his own
    /// screen (set by the window before the panel is drawn).
    pub seats: Option<crate::app::seating::Cx>,
    /// The sides that chose to play without a passphrase.
    without: Sides<bool>,
    /// *Confirm*, worked out by `ui` for the footer.
    main: Option<MainAction>,
    /// A pasted plain-text army list, and why it was refused.
    list: Option<ListDraft>,
}

#[derive(Default)]
struct ListDraft {
    text: String,
    errors: Vec<String>,
}

/// A player's new lock and key, set on his own screen.
type NewLock = (muster::core::intel::Lock, muster::core::intel::PlayerKey);

impl ArmiesPanel {
    /// Replaces a side's draft (a loaded or example roster) and shows it.
    pub fn set_draft(&mut self, side: Side, army: Army) {
        self.drafts[side] = army;
        self.side = Some(side);
    }

    /// The army being entered for `side`, as the form holds it.
    pub fn draft(&self, side: Side) -> &Army {
        &self.drafts[side]
    }

    /// The passphrase was set: nothing of it stays in the form.
    pub fn passphrase_set(&mut self, side: Side) {
        self.passphrases.keys[side] = None;
    }

    /// A player set his new passphrase on his own screen.
    pub fn passphrase_made(&mut self, side: Side, lock: NewLock) {
        self.passphrases.keys[side] = Some(lock);
    }

    /// The lock to set with `side`'s army, `None` for none, or why the army
    /// cannot be confirmed yet.
    fn choice(&self, side: Side) -> Result<Option<NewLock>, String> {
        if self.without[side] {
            return Ok(None);
        }
        self.passphrases.keys[side]
            .clone()
            .map(Some)
            .ok_or_else(|| format!("{side} sets a passphrase (above) or plays without one"))
    }

    /// The pasted army list, if one is being imported: its text, and the
    /// errors by line that keep it out.
    fn army_list(
        &mut self,
        ui: &mut egui::Ui,
        side: Side,
        ruleset: &muster::fog::ruleset::Ruleset,
    ) {
        let Some(list) = &mut self.list else { return };
        let mut close = false;
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.strong("Import an army list");
            ui.label("Paste the whole army: headings Player:, Army:, C-in-C: (name, quality), Commander: (one a line) and Territories: (each may be left out), then one battle group a line: bases, name, troop type, quality, drilled or undrilled, and optionally \"may dismount\". Lines starting with # are skipped.");
            ui.add(
                egui::TextEdit::multiline(&mut list.text)
                    .desired_rows(6)
                    .desired_width(f32::INFINITY)
                    .hint_text("Player: Ann\nC-in-C: Germanicus, Inspired Commander\n4, Legio V, heavy foot, superior, drilled"),
            )
            .accessible_name("Army list text");
            for e in &list.errors {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
            ui.horizontal(|ui| {
                if ui.button("Import army").clicked() {
                    match muster::fog::army_list::parse_army(&list.text, ruleset) {
                        Ok(army) => {
                            army.apply(&mut self.drafts[side]);
                            close = true;
                        }
                        Err(errors) => {
                            list.errors = errors.iter().map(ToString::to_string).collect();
                        }
                    }
                }
                if ui.button("Cancel import").clicked() {
                    close = true;
                }
            });
        });
        if close {
            self.list = None;
        }
    }

    /// A side's passphrase, for a side that has none yet: set on his own
    /// screen behind a hand-over, never typed on this shared one.
    fn passphrase_form(&mut self, ui: &mut egui::Ui, side: Side) {
        let army = &self.drafts[side];
        let name = if army.player.trim().is_empty() {
            side.to_string()
        } else {
            format!("{side} ({})", army.player.trim())
        };
        let context = [army.player.as_str(), army.name.as_str()];
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.strong(format!("{side}'s passphrase"));
            ui.label("It seals your ambushes and flank marches and tags every log entry, so nobody can read your secrets or change the record without it. It is never saved: remember it or write it down.");
            ui.checkbox(
                &mut self.without[side],
                "Play without a passphrase (a friendly game: edits and secrets are not protected)",
            );
            if !self.without[side]
                && let Some(cx) = &self.seats
            {
                self.passphrases
                    .row(ui, cx, side, &name, &context, "your ambushes and flank marches");
            }
        });
    }
}

impl StepPanel for ArmiesPanel {
    fn footer(&mut self, ui: &mut egui::Ui, _battle: &Battle, out: &mut Vec<FogCommand>) {
        MainAction::show(&mut self.main, ui, out);
    }

    fn ui(&mut self, ui: &mut egui::Ui, battle: &Battle, out: &mut Vec<FogCommand>) {
        let state = battle.state();
        for side in Side::BOTH {
            if self.seen[side] != state.armies[side] {
                let first = self.seen[side].is_none();
                self.seen[side] = state.armies[side].clone();
                if let Some(army) = &state.armies[side] {
                    self.drafts[side] = army.clone();
                    // Just confirmed: on to the other army, if it is still to come.
                    if first && state.armies[side.opponent()].is_none() {
                        self.side = Some(side.opponent());
                    }
                }
            }
        }
        let default_side = if state.armies.south.is_some() && state.armies.north.is_none() {
            Side::North
        } else {
            Side::South
        };
        let side = *self.side.get_or_insert(default_side);
        ui.horizontal(|ui| {
            for s in Side::BOTH {
                let mark = if state.armies[s].is_some() {
                    " ✔"
                } else {
                    ""
                };
                if ui
                    .add(egui::Button::selectable(side == s, format!("{s}{mark}")))
                    .clicked()
                {
                    self.side = Some(s);
                }
            }
        });
        ui.separator();
        let locked = state.initiative.started();
        if locked {
            ui.label("Initiative has been rolled: the armies are fixed (rule 2).");
        }
        let ruleset = battle.ruleset();
        // Rosters first: most players bring their army, they do not type it.
        ui.horizontal_wrapped(|ui| {
            if ui
                .add_enabled(!locked, egui::Button::new("Load roster…"))
                .clicked()
            {
                out.push(FogCommand::Dialog(FileAction::LoadRoster(side)));
            }
            if ui.button("Save roster…").clicked() {
                out.push(FogCommand::Dialog(FileAction::SaveRoster(
                    self.drafts[side].clone(),
                )));
            }
            if ui
                .add_enabled(!locked, egui::Button::new("Import army list…"))
                .on_hover_text("Paste a plain-text list: one battle group a line")
                .clicked()
            {
                self.list = Some(ListDraft::default());
            }
            // Too long for what is left of the row, it starts the next one
            // rather than break inside its frame.
            let example = "Load example army";
            let needed = ui
                .painter()
                .layout_no_wrap(
                    example.into(),
                    // egui 0.37's buttons write in the body's style.
                    egui::TextStyle::Body.resolve(ui.style()),
                    ui.visuals().text_color(),
                )
                .size()
                .x
                + 2.0 * ui.spacing().button_padding.x;
            if ui.available_rect_before_wrap().width() < needed {
                ui.end_row();
            }
            ui.add_enabled_ui(!locked, |ui| {
                ui.menu_button(example, |ui| {
                    for (i, (title, _)) in examples::ROSTERS.iter().enumerate() {
                        if ui.button(*title).clicked() {
                            out.push(FogCommand::DraftArmy(
                                side,
                                Box::new(examples::army(i, ruleset)),
                            ));
                        }
                    }
                });
            });
        });
        if !locked {
            self.army_list(ui, side, ruleset);
        }
        ui.add_enabled_ui(!locked, |ui| {
            army_identity(ui, &mut self.drafts[side], side)
        });
        // His passphrase before the long list of battle groups, in view
        // on a small screen when the army is loaded (review at 720 px).
        let asks_passphrase = !locked && !battle.has_passphrase(side);
        if asks_passphrase {
            ui.add_space(6.0);
            self.passphrase_form(ui, side);
        }
        let draft = &mut self.drafts[side];
        ui.add_enabled_ui(!locked, |ui| army_body(ui, draft, side, battle));
        ui.add_space(8.0);
        let mods = draft.initiative_modifiers(ruleset);
        let total: i32 = mods.iter().map(|m| m.value).sum();
        let bases = draft.initiative_bases(ruleset);
        let detail: Vec<String> = mods
            .iter()
            .map(|m| format!("{:+} {}", m.value, m.reason))
            .collect();
        ui.label(format!(
            "Mounted bases for initiative (cavalry, light horse, camelry, light chariots): {bases}"
        ));
        ui.strong(format!(
            "Initiative modifier: {total:+}{}",
            if detail.is_empty() {
                String::new()
            } else {
                format!(" ({})", detail.join(", "))
            }
        ));
        ui.add_space(6.0);
        let verdict = draft.validate(ruleset, side);
        let entered = state.armies[side].as_ref() == Some(&*draft);
        let passphrase = if asks_passphrase {
            self.choice(side)
        } else {
            Ok(None)
        };
        let new_passphrase = matches!(passphrase, Ok(Some(_)));
        if let Err(why) = &passphrase {
            ui.colored_label(ui.visuals().warn_fg_color, why);
        }
        if battle.has_passphrase(side) {
            ui.label(format!("🔒 {side}'s passphrase is set."));
        }
        let draft = &mut self.drafts[side];
        match (&verdict, entered) {
            (Err(e), _) => {
                ui.colored_label(ui.visuals().warn_fg_color, format!("Not ready: {e}"));
            }
            (Ok(()), true) => {
                ui.label(format!("{side}'s army is entered."));
            }
            // Ready only when the passphrase is settled too: the button
            // below says why when it is not.
            (Ok(()), false) if passphrase.is_ok() => {
                ui.label("Ready to confirm.");
            }
            (Ok(()), false) => {}
        }
        let confirm =
            (!locked && verdict.is_ok() && passphrase.is_ok() && (!entered || new_passphrase))
                .then(|| match &passphrase {
                    Ok(Some(lock)) => FogCommand::ConfirmArmyWithPassphrase(
                        side,
                        Box::new(draft.clone()),
                        Box::new(lock.clone()),
                    ),
                    _ => FogCommand::Apply(Command::SetArmy {
                        side,
                        army: draft.clone(),
                        lock: None,
                    }),
                });
        // Why it cannot be confirmed yet, beside the greyed button.
        let why_not = if locked {
            Some(format!("{side} unlocks the battle first"))
        } else if let Err(e) = &verdict {
            Some(format!("Not ready: {e}"))
        } else if let Err(why) = &passphrase {
            Some(why.clone())
        } else if entered && !new_passphrase {
            Some(format!("{side}'s army is entered"))
        } else {
            None
        };
        self.main =
            Some(MainAction::new(format!("Confirm {side}'s army"), confirm).why_not(why_not));
        if state.armies.south.is_some() && state.armies.north.is_some() && !locked {
            ui.add_space(6.0);
            if ui.button("Go to initiative").clicked() {
                out.push(FogCommand::ShowStep(muster::fog::battle::Step::Initiative));
            }
        }
    }
}
