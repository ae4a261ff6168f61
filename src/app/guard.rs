//! The click guard (issue 25): for a moment after the game changes, the
//! buttons that change it again do not take a click. The second click of
//! a double click would otherwise land on whatever button took the place
//! of the first ("End the event phase, skip the rally phase" twice skips
//! shooting too), and most of what they do cannot be undone. The shell arms
//! it after every change; such buttons ask it whether a click counts.

use eframe::egui;

/// Longer than the gap between the two clicks of a double click, shorter
/// than a player's next decision.
const GUARD: f64 = 0.4;

fn id() -> egui::Id {
    egui::Id::unique("muster-click-guard")
}

/// The game just changed: clicks wait a moment.
pub fn arm(ctx: &egui::Context) {
    let until = ctx.input(|i| i.time) + GUARD;
    ctx.data_mut(|d| d.insert_temp(id(), until));
    // Drawn again when the guard is down, so nothing waits on an event.
    ctx.request_repaint_after(std::time::Duration::from_secs_f64(GUARD));
}

/// Whether the guard is down.
fn down(ctx: &egui::Context) -> bool {
    let until = ctx.data(|d| d.get_temp::<f64>(id())).unwrap_or(0.0);
    ctx.input(|i| i.time) >= until
}

/// Whether `response` was clicked with the guard down.
pub fn clicked(response: &egui::Response) -> bool {
    response.clicked() && down(&response.ctx)
}

fn enter_id() -> egui::Id {
    egui::Id::unique("muster-enter-for-main-action")
}

/// Called at the start of a frame, before any widget: notes whether Enter
/// was pressed with no widget focused. A text field that Enter ends gives
/// its focus up during the frame, so asking later would take the Enter
/// that ended typing (a die, a name) for the main action too.
pub fn note_enter(ctx: &egui::Context) {
    // A press, not the key's auto-repeat: a held Enter does one thing.
    let pressed = ctx.input(|i| {
        i.events.iter().any(|e| {
            matches!(
                e,
                egui::Event::Key {
                    key: egui::Key::Enter,
                    pressed: true,
                    repeat: false,
                    ..
                }
            )
        })
    });
    let free = pressed && ctx.memory(|m| m.focused().is_none());
    ctx.data_mut(|d| d.insert_temp(enter_id(), free));
}

/// Whether the Enter noted this frame goes to the caller (the step's main
/// action): once a frame, with the guard down, so a held or doubled Enter
/// does one thing, as a double click does.
pub fn enter(ctx: &egui::Context) -> bool {
    let free = ctx.data_mut(|d| d.remove_temp::<bool>(enter_id()).unwrap_or(false));
    free && down(ctx)
}

/// A button whose click changes the game, guarded.
pub fn button(ui: &mut egui::Ui, text: impl Into<egui::WidgetText>) -> bool {
    clicked(&ui.button(text))
}
