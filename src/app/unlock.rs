//! The unlock window, for every system: a reopened battle or game whose
//! players set passphrases stays read-only until each of them unlocks it.
//! Each player unlocks behind his own hand-over screen (`PassphraseScreen`),
//! never beside the other's field; Muster checks every tag of his and names
//! the first log entry that fails, so an edit made without his passphrase
//! is found the moment he unlocks. The refusal shows on his screen.

use crate::app::passphrase::{Outcome, PassphraseScreen, Purpose, Shown};
use eframe::egui;
use muster::RuleError;
use muster::core::chained_game::OnLedger;
use muster::core::intel::{Lock, PlayerKey};
use muster::core::side::{Side, Sides};

#[derive(Default)]
pub struct UnlockWindow {
    /// The player unlocking now, behind his hand-over screen.
    screen: Option<PassphraseScreen>,
    errors: Sides<Option<String>>,
    /// The players chose to look at the battle read-only for now.
    closed: bool,
}

/// A player still to unlock: his side, how to call him, his lock.
pub type Locked = (Side, String, Lock);

/// The players of a chained game who must still unlock it, each by name.
pub fn locked_players<G: OnLedger>(game: Option<&G>) -> Vec<Locked> {
    game.map_or(Vec::new(), |game| {
        let ledger = game.record();
        ledger
            .locked_sides()
            .into_iter()
            .filter_map(|side| Some((side, ledger.name(side), ledger.lock(side).ok()?.clone())))
            .collect()
    })
}

/// What opening the game could not check yet, by whose unlock checks it.
pub fn unchecked<G: OnLedger>(game: Option<&G>) -> Vec<String> {
    game.map_or(Vec::new(), |game| game.record().unchecked())
}

/// A player's name and lock, when he set a passphrase: his private page
/// is opened on his own screen first.
pub fn private_lock<G: OnLedger>(game: Option<&G>, side: Side) -> Option<(String, Lock)> {
    let ledger = game?.record();
    Some((ledger.name(side), ledger.lock(side).ok()?.clone()))
}

/// What the unlock window did this frame.
pub enum Unlocking {
    Nothing,
    /// A player's screen covers the window: draw nothing else.
    Covering,
    /// A player's key, worked out from his passphrase: the system checks
    /// it (`unlock_key`) and gives the answer.
    Key(Side, PlayerKey),
}

impl UnlockWindow {
    /// Shows the window again after it was put aside.
    pub fn reopen(&mut self) {
        self.closed = false;
    }

    /// What the game said to `side`'s key.
    pub fn answer(&mut self, side: Side, result: Result<(), RuleError>) {
        self.errors[side] = result.as_ref().err().map(|e| e.message.clone());
        if let Some(screen) = &mut self.screen {
            match result {
                Ok(()) => screen.accepted(),
                Err(e) => screen.refused(e.message),
            }
        }
    }

    /// The window over `what` ("battle", "game") while `locked` have not
    /// unlocked, or the unlocking player's own screen over everything.
    pub fn show(&mut self, ui: &mut egui::Ui, what: &str, locked: &[Locked]) -> Unlocking {
        if let Some(screen) = &mut self.screen {
            return match screen.show(ui) {
                Shown::Open => Unlocking::Covering,
                Shown::Closed => {
                    self.screen = None;
                    Unlocking::Covering
                }
                Shown::Finished(Outcome::Unlocked(key)) => Unlocking::Key(screen.side, key),
                Shown::Finished(Outcome::Set(..)) => unreachable!("an unlock sets no lock"),
            };
        }
        if locked.is_empty() || self.closed {
            return Unlocking::Nothing;
        }
        egui::Window::new(format!("Unlock this {what}"))
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ui.ctx(), |ui| {
                ui.set_max_width(520.0);
                ui.label(format!(
                    "Each player who set a passphrase unlocks the {what} before it goes on, on a screen of his own. Muster checks that every entry of the log carries his tag, so nobody can have changed it without him."
                ));
                ui.add_space(8.0);
                for (side, who, lock) in locked {
                    if ui.button(format!("Unlock as {who}…")).clicked() {
                        self.screen = Some(PassphraseScreen::new(
                            *side,
                            who.clone(),
                            Purpose::Unlock(lock.clone()),
                        ));
                    }
                    if let Some(e) = &self.errors[*side] {
                        ui.colored_label(ui.visuals().error_fg_color, format!("✖ {e}"));
                    }
                    ui.add_space(4.0);
                }
                ui.separator();
                if ui
                    .button("Look at it read-only for now")
                    .on_hover_text(format!(
                        "See the {what} without changing it; unlock later from the status line"
                    ))
                    .clicked()
                {
                    self.closed = true;
                }
            });
        Unlocking::Nothing
    }
}

/// The status line's reminder that `locked` must still unlock the `what`;
/// true when "Unlock…" is clicked to show the window again.
pub fn read_only_banner(
    ui: &mut egui::Ui,
    what: &str,
    locked: &[Locked],
    unchecked: &[String],
) -> bool {
    if locked.is_empty() {
        return false;
    }
    ui.horizontal(|ui| {
        let names: Vec<&str> = locked.iter().map(|(_, who, _)| who.as_str()).collect();
        let one = locked.len() == 1;
        ui.colored_label(
            ui.visuals().warn_fg_color,
            format!(
                "🔒 Read-only until {} unlock{} the {what} with {} passphrase.",
                names.join(" and "),
                if one { "s" } else { "" },
                if one { "his" } else { "their" }
            ),
        )
        .on_hover_text(format!("Not checked yet:\n{}", unchecked.join("\n")));
        ui.button("Unlock…").clicked()
    })
    .inner
}
