//! One panel per step of the sequence, each a struct owning its UI-only state
//! (drafts, typed dice) behind the small `StepPanel` trait, as in egui's demo
//! app. Panels read the battle and push commands; they never change it.

mod ambushes;
mod armies;
mod battle_settings;
mod camps;
mod deployment;
mod flank_marches;
mod initiative;
mod moves_first;
mod placement;
mod play;
mod roll_off;
mod selection;
mod territory;

use crate::app::dice_input;
use crate::app::fog::FogCommand;
use eframe::egui;
use egui::Color32;
use muster::core::dice::DiceInput;
use muster::core::side::Side;
use muster::fog::battle::{Battle, Command, Step};

pub use ambushes::AmbushesPanel;
pub use armies::ArmiesPanel;
pub use camps::CampsPanel;
pub use deployment::DeploymentPanel;
pub use placement::PlacementPanel;

/// A step's main action as its panel worked it out this frame: the button's
/// words, and what it sends (`None`: shown, but not possible yet); or a
/// roll, the app's dice or those typed from the table. Either way it is
/// drawn first in the panel's footer, one place for every step and player,
/// and Enter (with no field being typed in) does it.
pub struct MainAction {
    pub label: String,
    pub command: Option<FogCommand>,
    /// Why it is not possible yet, shown when the disabled button is hovered.
    pub why_not: Option<String>,
    /// What the button does, shown when it is hovered.
    hover: Option<String>,
    /// Commands sent after `command`, by the same click.
    more: Vec<FogCommand>,
    roll: Option<Roll>,
}

/// A roll as a main action: who rolls, how many dice, and the command the
/// dice go in.
struct Roll {
    who: String,
    count: usize,
    send: Box<dyn Fn(DiceInput) -> FogCommand>,
    /// What he may do instead of rolling, beside the dice: its label and
    /// command (rule 6: the adjuster leaves the piece without a roll).
    instead: Option<(String, FogCommand)>,
}

/// The footer's typed dice and their error, kept across frames by egui
/// (the main action itself is worked out anew each frame).
#[derive(Clone, Default)]
struct TypedDice {
    text: String,
    error: Option<String>,
}

impl MainAction {
    pub fn new(label: impl Into<String>, command: Option<FogCommand>) -> MainAction {
        MainAction {
            label: label.into(),
            command,
            why_not: None,
            hover: None,
            more: Vec::new(),
            roll: None,
        }
    }

    /// One click sending several commands in turn (*Roll for both*).
    pub fn many(label: impl Into<String>, mut commands: Vec<FogCommand>) -> MainAction {
        let first = (!commands.is_empty()).then(|| commands.remove(0));
        MainAction {
            more: commands,
            ..MainAction::new(label, first)
        }
    }

    pub fn hover(mut self, text: impl Into<String>) -> MainAction {
        self.hover = Some(text.into());
        self
    }

    /// `who` rolls `count` dice, sent by `send`: "Roll for South" where
    /// the main action's button stands, a field for typed dice beside it.
    pub fn roll(
        who: &str,
        count: usize,
        send: impl Fn(DiceInput) -> FogCommand + 'static,
    ) -> MainAction {
        MainAction {
            roll: Some(Roll {
                who: who.to_string(),
                count,
                send: Box::new(send),
                instead: None,
            }),
            ..MainAction::new(format!("Roll for {who}"), None)
        }
    }

    /// A roll's alternative, offered beside its dice.
    pub fn or_instead(mut self, label: impl Into<String>, command: FogCommand) -> MainAction {
        if let Some(roll) = &mut self.roll {
            roll.instead = Some((label.into(), command));
        }
        self
    }

    pub fn why_not(mut self, reason: Option<String>) -> MainAction {
        self.why_not = reason;
        self
    }

    /// Draws the action in the footer; a click or Enter sends it.
    pub fn show(action: &mut Option<MainAction>, ui: &mut egui::Ui, out: &mut Vec<FogCommand>) {
        if action.is_some() {
            let enter = crate::app::guard::enter(ui.ctx());
            Self::draw(action, ui, out, enter);
        }
    }

    /// Draws the action in the panel, as the alternative to the footer's:
    /// a click sends it, Enter is the footer's.
    pub fn show_aside(action: MainAction, ui: &mut egui::Ui, out: &mut Vec<FogCommand>) {
        Self::draw(&mut Some(action), ui, out, false);
    }

    fn draw(
        action: &mut Option<MainAction>,
        ui: &mut egui::Ui,
        out: &mut Vec<FogCommand>,
        enter: bool,
    ) {
        let Some(a) = action else {
            return;
        };
        if let Some(roll) = &mut a.roll {
            let id = egui::Id::unique("footer dice").with(&roll.who);
            let mut typed: TypedDice = ui.data_mut(|d| d.get_temp(id)).unwrap_or_default();
            let mut instead = false;
            let dice = ui.horizontal(|ui| {
                if dice_input::roll_button(ui, &roll.who) || enter {
                    typed.error = None;
                    return Some(DiceInput::app());
                }
                ui.label("or type");
                let dice = dice_input::typed_dice(
                    ui,
                    &roll.who,
                    roll.count,
                    &mut typed.text,
                    &mut typed.error,
                );
                if let Some((label, _)) = &roll.instead
                    && crate::app::guard::button(ui, label)
                {
                    instead = true;
                }
                dice
            });
            if let Some(why) = &typed.error {
                ui.colored_label(ui.visuals().error_fg_color, why);
            }
            ui.data_mut(|d| d.insert_temp(id, typed));
            if let Some(dice) = dice.inner {
                out.push((roll.send)(dice));
            } else if instead && let Some((_, command)) = roll.instead.take() {
                out.push(command);
            }
            return;
        }
        let button = egui::Button::new(a.label.as_str());
        let (mut response, why_shown) = ui
            .horizontal(|ui| {
                let response = ui.add_enabled(a.command.is_some(), button);
                // Why it is greyed, beside it: not only on hover, and never
                // below the fold.
                let why = a.why_not.as_ref().filter(|_| a.command.is_none());
                if let Some(why) = why {
                    ui.add(egui::Label::new(egui::RichText::new(why).weak()).truncate());
                }
                (response, why.is_some())
            })
            .inner;
        if let (Some(why), true) = (&a.why_not, why_shown) {
            response = response.on_disabled_hover_text(why);
        }
        if let Some(text) = &a.hover {
            response = response.on_hover_text(text);
        }
        if (crate::app::guard::clicked(&response) || enter)
            && let Some(command) = a.command.take()
        {
            out.push(command);
            out.append(&mut a.more);
        }
    }
}

pub trait StepPanel {
    fn ui(&mut self, ui: &mut egui::Ui, battle: &Battle, out: &mut Vec<FogCommand>);

    /// The step's main action, drawn in the panel's fixed footer so it
    /// stays in one place, always in view, whatever the panel scrolls.
    fn footer(&mut self, _ui: &mut egui::Ui, _battle: &Battle, _out: &mut Vec<FogCommand>) {}
}

pub struct Panels {
    pub battle: battle_settings::SettingsPanel,
    pub armies: ArmiesPanel,
    pub initiative: initiative::InitiativePanel,
    pub territory: territory::TerritoryPanel,
    pub selection: selection::SelectionPanel,
    pub placement: PlacementPanel,
    pub camps: CampsPanel,
    pub ambushes: AmbushesPanel,
    pub flank_marches: flank_marches::FlankMarchesPanel,
    pub play: play::PlayPanel,
    pub deployment: DeploymentPanel,
    pub moves_first: moves_first::MovesFirstPanel,
    /// The side played from another machine in a remote game.
    remote: Option<Side>,
}

impl Panels {
    /// Fresh panels; the placement panel draws its pieces from `inventory`.
    pub fn new(inventory: muster::fog::inventory::Inventory) -> Panels {
        Panels {
            battle: Default::default(),
            armies: Default::default(),
            initiative: Default::default(),
            territory: Default::default(),
            selection: Default::default(),
            placement: PlacementPanel::new(inventory),
            camps: Default::default(),
            ambushes: Default::default(),
            flank_marches: Default::default(),
            play: Default::default(),
            deployment: Default::default(),
            moves_first: Default::default(),
            remote: None,
        }
    }

    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        step: Step,
        battle: &Battle,
        out: &mut Vec<FogCommand>,
    ) {
        ui.heading(format!("{} (rule {})", step.title(), step.rule()));
        ui.add_space(4.0);
        match self.theirs(battle, step) {
            // The step is the other machine's player's: shown as it
            // stands, nothing of it to click here.
            Some(name) => {
                ui.strong(format!(
                    "{name} does this step on their own Muster, on their machine."
                ));
                ui.add_enabled_ui(false, |ui| self.panel(step).ui(ui, battle, out));
            }
            None => self.panel(step).ui(ui, battle, out),
        }
    }

    /// What the shown step draws on the table (a draft, a legality map):
    /// nothing while it is the other machine's player's (a draft of this
    /// window's would look like his move).
    pub fn overlay(
        &mut self,
        step: Step,
        battle: &Battle,
    ) -> Option<&mut dyn crate::app::fog::table_view::Overlay> {
        if self.theirs(battle, step).is_some() {
            return None;
        }
        match step {
            Step::TerrainPlacement => Some(&mut self.placement),
            Step::CampsAndFortifications => Some(&mut self.camps),
            Step::Deployment => Some(&mut self.deployment),
            Step::Play => Some(&mut self.play),
            _ => None,
        }
    }

    /// The name of the player whose move the shown step waits for, when
    /// he plays it from another machine.
    fn theirs(&self, battle: &Battle, step: Step) -> Option<String> {
        let side = battle.phase().side()?;
        (Some(side) == self.remote && step == battle.state().current_step(battle.ruleset()))
            .then(|| muster::core::seat::Seated::seat_name(battle, side))
    }

    /// The shown step's main action, in the panel's fixed footer.
    pub fn footer(
        &mut self,
        ui: &mut egui::Ui,
        step: Step,
        battle: &Battle,
        out: &mut Vec<FogCommand>,
    ) {
        match self.theirs(battle, step) {
            Some(name) => crate::app::remote::waiting_for(ui, &name),
            None => self.panel(step).footer(ui, battle, out),
        }
    }

    fn panel(&mut self, step: Step) -> &mut dyn StepPanel {
        match step {
            Step::Battle => &mut self.battle,
            Step::Armies => &mut self.armies,
            Step::Initiative => &mut self.initiative,
            Step::Territory => &mut self.territory,
            Step::TerrainSelection => &mut self.selection,
            Step::TerrainPlacement => &mut self.placement,
            Step::CampsAndFortifications => &mut self.camps,
            Step::Ambushes => &mut self.ambushes,
            Step::FlankMarches => &mut self.flank_marches,
            Step::Deployment => &mut self.deployment,
            Step::WhoMovesFirst => &mut self.moves_first,
            Step::Play => &mut self.play,
        }
    }
}

/// The ruleset's help text for a step, shown under its heading.
fn help(ui: &mut egui::Ui, battle: &Battle, key: &str) {
    let text = battle.state().settings.speak(battle.ruleset().help(key));
    if !text.is_empty() {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.label(egui::RichText::new(text).italics());
        });
        ui.add_space(6.0);
    }
}

/// What a player needs to lay the piece on the real table: its turn and
/// the two points he finds on the real piece (an oval's long axis ends, a
/// rectangle's corners: `survey::reference_points`), in the chosen unit.
pub(super) fn tape_measure(
    state: &muster::fog::battle::State,
    shape: &muster::fog::geometry::Shape,
    pose: muster::fog::geometry::Pose,
) -> String {
    use muster::fog::geometry::survey::{reference_points, turn, turn_words};
    let [(a, first), (b, second)] = reference_points(shape, pose, false, state.table());
    format!(
        "Lay it turned {}; its {a} at {}; its {b} at {}.",
        turn_words(turn(shape, pose.angle)),
        state.settings.fix(&first),
        state.settings.fix(&second)
    )
}

/// A field for a length the engine keeps in MU, shown and typed in the
/// chosen unit ("30.0 cm"): a player measuring in cm never converts.
/// `range` and the drag speed are in MU.
pub(super) fn length_field<'a>(
    value: &'a mut f64,
    settings: &muster::fog::battle::Settings,
) -> egui::DragValue<'a> {
    let (unit, scale) = (settings.units, settings.mu);
    egui::DragValue::new(value)
        .custom_formatter(move |mu, _| format!("{:.1} {}", unit.from_mu(mu, scale), unit.symbol()))
        .custom_parser(move |text| {
            let number = text.trim().trim_end_matches(unit.symbol()).trim();
            number.parse::<f64>().ok().map(|v| unit.to_mu(v, scale))
        })
}

/// What a passed check says of a position.
pub(super) const LEGAL_POSITION: &str = "✔ Legal position";

/// Shows whether the engine would accept `command`, and why not; returns
/// whether it would, for enabling the button that sends it. `ok` says what
/// a pass means here ("✔ Legal position" for a place on the table).
pub(super) fn verdict_line(
    ui: &mut egui::Ui,
    battle: &Battle,
    command: &Command,
    ok: &str,
) -> bool {
    verdict(ui, battle, battle.check(command).map(|_| ()), ok)
}

/// Shows a rule check's answer: `ok`, or the rule it breaks.
pub(super) fn verdict(
    ui: &mut egui::Ui,
    battle: &Battle,
    check: Result<(), muster::RuleError>,
    ok: &str,
) -> bool {
    match check {
        Ok(_) => {
            ui.colored_label(Color32::from_rgb(60, 170, 80), ok);
            true
        }
        Err(e) => {
            let text = battle.state().settings.speak(&e.to_string());
            ui.colored_label(ui.visuals().error_fg_color, format!("✖ {text}"));
            false
        }
    }
}

impl Panels {
    /// Where each seat is this frame: a player on his phone does his
    /// private steps there.
    pub fn set_seats(&mut self, cx: &crate::app::seating::Cx) {
        let away = muster::core::side::Sides {
            south: cx.lives.south.away_at(),
            north: cx.lives.north.away_at(),
        };
        self.ambushes.away = away;
        self.flank_marches.away = away;
        self.play.away = away;
        self.deployment.away = away;
        let remote = Side::BOTH
            .into_iter()
            .find(|s| away[*s] == Some(crate::app::seating::life::Away::Machine));
        self.remote = remote;
        self.initiative.input.remote = remote;
        self.moves_first.input.remote = remote;
        self.armies.seats = Some(cx.clone());
    }
}
