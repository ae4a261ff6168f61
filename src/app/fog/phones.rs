//! Field of Glory's private steps on the players' phones (RULES 8.3, 8.4,
//! 9, 10): a paired player places his ambushes, records his flank marches,
//! sees which of his sealed battle groups are also deployed and reveals
//! his secrets on his own phone, after his passphrase; the shared screen
//! only says that he is busy there, and never shows a hand-over screen for
//! him. The screens are the engine's own (`muster_fog::screens`), the same
//! the laptop draws behind its hand-over screen. His key lives here, in
//! memory, while his phone holds his seat: he gives his passphrase once,
//! not at every step, since his phone, not a hand-over, keeps his secrets
//! from the table. It goes the moment the seat is let go or re-paired, so
//! a device paired in his place finds it asked again.

use crate::app::players::PhoneForms;
use muster::core::intel::{PlayerKey, SealKey};
use muster::core::passphrase_screen::{self, Answer, Purpose};
use muster::core::screen::{Action, Block, Reply, Screen, Values};
use muster::core::side::{Side, Sides};
use muster::fog::battle::{
    AmbushMaps, Battle, Command, DeploymentTurn, Finished, Phase, arrival_word,
};
use muster::fog::screens::{self, Reveal};
use std::sync::mpsc::Receiver;

/// A private step of a player's, done on his phone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    Ambushes,
    FlankMarches,
    /// During deployment, for a player with battle groups off the table:
    /// which of them is also deployed (his sealed records name them).
    Check,
    Reveal(Reveal),
    /// In play: a roll of his march with a sealed modifier waits for his
    /// word, which his phone gives with his key.
    Word,
}

/// What `side` does in private now, if anything; `opening` is the secret
/// the table asked to open, and whose it is.
pub fn task(battle: &Battle, side: Side, opening: Option<(Reveal, Side)>) -> Option<Task> {
    if let Some((reveal, owner)) = opening
        && owner == side
    {
        return Some(Task::Reveal(reveal));
    }
    match battle.phase() {
        Phase::Play if !waiting_words(battle, side).is_empty() => Some(Task::Word),
        Phase::Deployment(DeploymentTurn::Ambushes(s)) if s == side => Some(Task::Ambushes),
        Phase::Deployment(DeploymentTurn::FlankMarches(s)) if s == side => Some(Task::FlankMarches),
        Phase::Deployment(
            DeploymentTurn::Batch { .. }
            | DeploymentTurn::Dismount(_)
            | DeploymentTurn::Commanders(_),
        ) if battle.state().deployment.off_table[side].unwrap_or(0) > 0 => Some(Task::Check),
        _ => None,
    }
}

/// `side`'s marches whose last arrival roll waits for his word.
fn waiting_words(battle: &Battle, side: Side) -> Vec<usize> {
    let marches = &battle.state().deployment.flank_marches;
    (0..marches.len())
        .filter(|m| marches[*m].side == side && marches[*m].awaits_word())
        .collect()
}

/// One player's key, while he has a private step.
#[derive(Default)]
struct Session {
    key: Option<SealKey>,
    /// His key being worked out from his passphrase (Argon2id), off the
    /// window's thread.
    working: Option<Receiver<Result<PlayerKey, String>>>,
    /// Why his passphrase was not taken.
    error: Option<String>,
}

/// What a phone's answer asks of the battle.
pub enum Asked {
    Nothing,
    /// A command of his private step; the form fields it used up.
    Command(Command, &'static [&'static str]),
    /// He revealed (or found nothing to reveal): the table goes on.
    Revealed(Option<Command>),
}

#[derive(Default)]
pub struct FogPhones {
    /// Who holds his seat on a phone.
    pub on: Sides<bool>,
    sessions: Sides<Session>,
    pub forms: PhoneForms,
    maps: Sides<AmbushMaps>,
}

/// The action that ends his step, as the footer's button would: the same
/// command, so his phone and the laptop finish a step alike.
fn finish(battle: &Battle, side: Side, task: Task, key: &SealKey) -> Option<Command> {
    match task {
        Task::Ambushes => Some(Command::Finish {
            side,
            step: Finished::Ambushes,
        }),
        Task::FlankMarches => {
            let (_, off_table) = screens::flank_marches(battle, side, key, &Values::new()).ok()?;
            Some(Command::FinishFlankMarches { side, off_table })
        }
        Task::Check | Task::Reveal(_) | Task::Word => None,
    }
}

fn finish_label(task: Task) -> &'static str {
    match task {
        Task::Ambushes => "Finish my ambushes",
        _ => "Done with my flank marches",
    }
}

impl FogPhones {
    /// Who holds his seat on a phone now: the key of a seat let go (or
    /// being re-paired) goes.
    pub fn paired(&mut self, on: &Sides<bool>) {
        self.on = on.clone();
        for side in Side::BOTH {
            if !on[side] {
                self.sessions[side] = Session::default();
                self.forms.clear(side);
            }
        }
    }

    /// The key of a player who just unlocked the battle on his phone.
    pub fn hold(&mut self, side: Side, key: SealKey) {
        self.sessions[side] = Session {
            key: Some(key),
            ..Session::default()
        };
    }

    /// His form goes with the step it was for.
    fn settle(&mut self, side: Side, task: Option<Task>) {
        if task.is_none() {
            self.forms.clear(side);
        }
    }

    /// His key: the one his passphrase gave (checked against every tag of
    /// his), or the unprotected one for a player without a passphrase.
    fn key(&mut self, battle: &Battle, side: Side) -> Option<SealKey> {
        let session = &mut self.sessions[side];
        if let Some(working) = &session.working
            && let Ok(worked) = working.try_recv()
        {
            session.working = None;
            match worked.and_then(|key| battle.seal_key(side, &key).map_err(|e| e.message)) {
                Ok(key) => session.key = Some(key),
                Err(why) => session.error = Some(why),
            }
        }
        if !battle.has_passphrase(side) {
            return Some(SealKey::unprotected());
        }
        session.key.clone()
    }

    /// `side`'s screen for his phone: his passphrase first, then his
    /// private step; a word of what comes when he has none.
    pub fn screen(
        &mut self,
        battle: &Battle,
        side: Side,
        opening: Option<(Reveal, Side)>,
    ) -> Screen {
        let task = task(battle, side, opening);
        self.settle(side, task);
        let Some(task) = task else {
            return Screen {
                title: format!("{side}: my secrets"),
                blocks: vec![Block::Text {
                    text: "Nothing private to do now: your ambushes, flank marches and reveals come here when it is your turn for them.".into(),
                }],
            };
        };
        let Some(key) = self.key(battle, side) else {
            let session = &self.sessions[side];
            if session.working.is_some() {
                return Screen {
                    title: format!("{side}: my secrets"),
                    blocks: vec![Block::Text {
                        text: "Working out the key (Argon2id, slow on purpose)…".into(),
                    }],
                };
            }
            return passphrase_screen::screen(
                side.name(),
                Purpose::Open,
                None,
                session.error.as_deref(),
            );
        };
        let built = match task {
            Task::Ambushes => screens::ambushes(
                battle,
                side,
                &key,
                self.forms.form(side),
                &mut self.maps[side],
            ),
            Task::FlankMarches => {
                screens::flank_marches(battle, side, &key, self.forms.form(side)).map(|(s, _)| s)
            }
            Task::Check => screens::deployment_check(battle, side, &key),
            Task::Word => Ok(Screen {
                title: format!("{side}: my flank marches"),
                blocks: vec![Block::Text {
                    text: "Your phone adds your march's sealed modifier to its roll and tells the table whether it arrives.".into(),
                }],
            }),
            Task::Reveal(reveal) => Ok(screens::reveal(
                battle,
                side,
                reveal,
                &key,
                self.forms.form(side),
            )),
        };
        let mut screen = match built {
            Ok(screen) => screen,
            Err(e) => Screen {
                title: format!("{side}: my secrets"),
                blocks: vec![Block::Refusal {
                    text: battle.state().settings.speak(&e.to_string()),
                }],
            },
        };
        if !battle.has_passphrase(side) {
            screen.blocks.insert(
                0,
                Block::Text {
                    text:
                        "⚠ You play without a passphrase: the file does not protect these secrets."
                            .into(),
                },
            );
        }
        if let Some(command) = finish(battle, side, task, &key) {
            screen.blocks.push(Block::Actions {
                actions: vec![Action::new(finish_label(task), &command)],
            });
        }
        self.forms.screen(side, screen)
    }

    /// The words his phone gives on his marches' rolls (RULES 10, players'
    /// screens ruling): each sealed modifier added to its roll with his key,
    /// as soon as the roll is made and his key is there.
    pub fn words(&mut self, battle: &Battle) -> Vec<(Side, Command)> {
        let mut out = Vec::new();
        for side in Side::BOTH {
            let waiting = waiting_words(battle, side);
            if !self.on[side] || waiting.is_empty() {
                continue;
            }
            let Some(key) = self.key(battle, side) else {
                continue;
            };
            let (state, ruleset) = (battle.state(), battle.ruleset());
            out.extend(
                waiting
                    .into_iter()
                    .filter_map(|m| arrival_word(state, ruleset, side, m, &key).ok())
                    .map(|c| (side, c)),
            );
        }
        out
    }

    /// What `side` typed or picked so far, for the screen's live checks.
    pub fn values(&mut self, side: Side, values: Values) {
        self.forms.merge(side, values);
    }

    /// `side`'s answer: his passphrase (its key worked out off the
    /// window's thread; `wake` redraws when it is), or what his step asks
    /// of the battle. A refusal goes to his phone alone.
    pub fn answer(
        &mut self,
        battle: &Battle,
        side: Side,
        opening: Option<(Reveal, Side)>,
        reply: Reply,
        wake: impl Fn() + Send + 'static,
    ) -> Asked {
        let Some(task) = task(battle, side, opening) else {
            return Asked::Nothing;
        };
        let Some(key) = self.key(battle, side) else {
            match passphrase_screen::read(Purpose::Open, &reply) {
                Ok(Answer::Passphrase(passphrase)) => {
                    if let Some(lock) = battle.state().locks[side].clone() {
                        let (send, receive) = std::sync::mpsc::channel();
                        std::thread::spawn(move || {
                            let _ = send.send(lock.unlock(&passphrase).map_err(|e| e.message));
                            wake();
                        });
                        let session = &mut self.sessions[side];
                        session.working = Some(receive);
                        session.error = None;
                    }
                }
                Ok(_) => {}
                Err(why) => self.sessions[side].error = Some(why),
            }
            return Asked::Nothing;
        };
        let finishing = finish(battle, side, task, &key);
        if let Some(command) = finishing
            && serde_json::to_value(&command).ok().as_ref() == Some(&reply.command)
        {
            return Asked::Command(command, &[]);
        }
        let reply = self.forms.reply(side, reply);
        let speak = |e: muster::RuleError| battle.state().settings.speak(&e.to_string());
        let answered = match task {
            Task::Ambushes => screens::answer_ambush(battle, side, &key, &reply)
                .map(|c| Asked::Command(c, &["content", "at"])),
            Task::FlankMarches => screens::answer_flank_march(battle, side, &key, &reply, true)
                .map(|c| Asked::Command(c, &["bgs"])),
            Task::Reveal(reveal) => {
                screens::answer_reveal(battle, side, reveal, &key, &reply).map(Asked::Revealed)
            }
            Task::Check | Task::Word => return Asked::Nothing,
        };
        match answered {
            Ok(asked) => asked,
            Err(e) => {
                self.forms.answered(side, Err(speak(e)), &[]);
                Asked::Nothing
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::app::deck::phones::{Phone, phones, until};
    use crate::app::tests::{
        click, click_table, legal_ambush_point, opened, shows_none, type_into,
    };
    use egui_kittest::kittest::{NodeT, Queryable};
    use muster::core::screen::Block;
    use muster::core::side::Side;
    use muster::fog::battle::AmbushContent;

    const PASS: &str = muster::fog::examples::EXAMPLE_PASSPHRASE;

    /// Picks `content` and a point on his phone, waits for the rules'
    /// verdict there (it must pass), and taps the seal button.
    fn place(
        h: &mut egui_kittest::Harness<'_, crate::app::MusterApp>,
        phone: &mut Phone,
        content: &str,
        at: [f64; 2],
    ) {
        let point = format!("{} {}", at[0], at[1]);
        phone.fill(serde_json::json!({"content": [content], "at": [point]}));
        let said = (0..100).find_map(|_| {
            h.run();
            verdict(phone).filter(|v| v.starts_with('✔'))
        });
        assert!(said.is_some(), "{content} at {point}: {:?}", verdict(phone));
        phone.tap("Seal and place ambush marker");
    }

    /// The rules' verdict on the point he picked, as his phone shows it.
    fn verdict(phone: &mut Phone) -> Option<String> {
        phone.look().blocks.iter().find_map(|b| match b {
            Block::Table { table } => table.pick.as_ref()?.verdict.clone(),
            _ => None,
        })
    }

    /// Field of Glory with both players on their phones: South unlocks the
    /// reopened battle on his, then places a real and a dummy ambush and
    /// records a flank march there without typing his passphrase again;
    /// North, without a passphrase, says he has none. South's phone checks
    /// his sealed battle groups through deployment; in play the march's
    /// modifier stays sealed, his phone says whether each public roll
    /// brings it on, and he reveals it there. The laptop never shows a
    /// hand-over screen, its accessibility tree never names what South
    /// sealed, and nothing of it crosses North's socket.
    #[test]
    fn ambushes_and_a_flank_march_on_the_phones_need_no_hand_over() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("terrain.json");
        std::fs::write(&path, muster::fog::examples::TERRAIN_BATTLE).unwrap();
        let mut h = opened(dir.path(), path);
        click(&mut h, "Look at it read-only for now");
        let [mut south, mut north]: [Phone; 2] =
            phones(&mut h, &Side::BOTH).try_into().ok().unwrap();
        until(&mut h, |h| {
            h.query_by_label("North (Bob): on his phone").is_some()
        });
        assert_eq!(south.look().title, "South (Ann), your passphrase");
        south.tap_with("Unlock", serde_json::json!({"passphrase": [PASS]}));
        until(&mut h, |h| h.state().fog().battle.locked_sides().is_empty());

        // Camps and fortifications are public: on the laptop.
        camps(&mut h);

        // North, first, has no passphrase and no ambush.
        h.run();
        h.get_by_label("North places his ambushes on his phone.");
        assert!(h.query_by_label("Pass to North").is_none());
        let screen = north.look().clone();
        assert!(
            screen
                .texts()
                .iter()
                .any(|t| t.contains("without a passphrase")),
            "{screen:?}"
        );
        north.tap("Finish my ambushes");
        until(&mut h, |h| {
            h.query_by_label("South places his ambushes on his phone.")
                .is_some()
        });

        // South: his key came with his unlock; a pick first gets the
        // rules' verdict, then the marker is sealed.
        h.run();
        let secrets = secrets(&h);
        let bg = secrets.bg;
        let at = legal_ambush_point(&h, Side::South, AmbushContent::Bg { bg });
        place(&mut h, &mut south, &format!("bg {bg}"), at);
        until(&mut h, |h| state(h).deployment.ambushes.len() == 1);
        // A point in North's half: the rules' verdict is on his phone only.
        h.run();
        south.fill(serde_json::json!({"content": ["dummy"], "at": ["36 47"]}));
        let said = (0..100).find_map(|_| {
            h.run();
            verdict(&mut south).filter(|v| v.starts_with('✖'))
        });
        let said = said.expect("the verdict is on his phone");
        let words = said.trim_start_matches('✖').trim();
        assert!(h.query_by_label_contains(words).is_none(), "{said}");
        let at = legal_ambush_point(&h, Side::South, AmbushContent::Dummy);
        place(&mut h, &mut south, "dummy", at);
        until(&mut h, |h| state(h).deployment.ambushes.len() == 2);
        h.run();
        south.tap("Finish my ambushes");

        // Flank marches: North has none; South sends his two alae.
        until(&mut h, |h| {
            h.query_by_label("North records his flank marches on his phone.")
                .is_some()
        });
        h.run();
        north.tap("Done with my flank marches");
        until(&mut h, |h| {
            h.query_by_label("South records his flank marches on his phone.")
                .is_some()
        });
        h.run();
        south.fill(serde_json::json!({"bgs": secrets.marching}));
        let ready = (0..100).any(|_| {
            h.run();
            let screen = south.look().clone();
            screen.blocks.iter().any(|b| match b {
                Block::Form { actions, .. } | Block::Actions { actions } => actions
                    .iter()
                    .any(|a| a.label == "Seal flank march" && a.refused.is_none()),
                _ => false,
            })
        });
        assert!(ready, "the march is ready to seal: {:?}", south.look());
        south.tap("Seal flank march");
        until(&mut h, |h| !state(h).deployment.flank_marches.is_empty());
        h.run();
        let screen = south.look().clone();
        assert!(
            screen.texts().iter().any(|t| t.contains(&secrets.names[0])),
            "his march is on his phone: {screen:?}"
        );
        south.tap("Done with my flank marches");
        until(&mut h, |h| state(h).deployment.off_table.south.is_some());
        h.run();
        let mut sealed = vec![secrets.archers.clone()];
        sealed.extend(secrets.names.iter().cloned());
        shows_none(&h, &sealed);
        assert!(
            h.query_by_label_contains("Pass to").is_none(),
            "no hand-over"
        );
        // Deployment: the laptop ticks what each side set on the table;
        // South's phone checks his sealed battle groups as he goes.
        deploy(&mut h, &secrets);
        let check = south.look().clone();
        assert!(
            check
                .texts()
                .iter()
                .any(|t| t.contains("None of the battle groups you sealed")),
            "{check:?}"
        );
        assert!(
            h.query_by_label_contains("check my sealed battle groups")
                .is_none()
        );
        to_arrival(&mut h);
        h.run();
        south.tap("Reveal to both players");
        until(&mut h, |h| {
            log(h).contains("South's flank march 1 is revealed (commitment checked)")
        });
        assert!(!log(&h).contains("modifier +"), "{}", log(&h));
        assert!(
            h.query_by_label_contains("Pass to").is_none(),
            "no hand-over"
        );
        let seen = north.everything_seen();
        for name in &sealed {
            assert!(
                !seen.contains(name.as_str()),
                "{name} crossed North's socket"
            );
        }
    }

    /// South sets his army's passphrase on his phone (issue 23): the
    /// laptop's form only says that he has one, and the battle is sealed
    /// under it once his army is confirmed.
    #[test]
    fn south_sets_his_armys_passphrase_on_his_phone() {
        let dir = tempfile::tempdir().unwrap();
        let mut h = crate::app::tests::harness(&dir.path().join("autosaves"));
        h.run();
        click(&mut h, "South");
        click(&mut h, "Load example army");
        click(&mut h, "Early Imperial Roman");
        let mut south = phones(&mut h, &[Side::South]).remove(0);
        until(&mut h, |h| {
            h.query_by_label("Set South's passphrase on his phone")
                .is_some()
        });
        click(&mut h, "Set South's passphrase on his phone");
        h.run();
        assert_eq!(south.look().title, "Marcus, your passphrase");
        south.tap_with(
            "Set it",
            serde_json::json!({"passphrase": [PASS], "again": [PASS]}),
        );
        until(&mut h, |h| {
            h.query_by_label("✔ South (Marcus) has set a passphrase")
                .is_some()
        });
        assert!(h.query_by_label_contains(PASS).is_none());
        click(&mut h, "Confirm South's army");
        let battle = &h.state().fog().battle;
        assert!(battle.has_passphrase(Side::South));
        let lock = battle.state().locks.south.clone().unwrap();
        assert!(lock.unlock(PASS).is_ok(), "his words open his lock");
    }

    /// The camps and fortifications of the shipped battle, from the laptop.
    fn camps(h: &mut egui_kittest::Harness<'_, crate::app::MusterApp>) {
        click_table(h, [30.0, 44.0]);
        click_table(h, [45.0, 45.0]);
        click(h, "Place camp");
        click(h, "Place camp");
        click(h, "North: finish fortifications");
        click(h, "South: finish fortifications");
    }

    /// South's phone in Chromium (390 x 844, the page loaded from the test
    /// hostname, so without WebCrypto as on a real phone): he unlocks with
    /// his passphrase, picks his archers, taps the table where they may
    /// hide, reads the rules' verdict, taps the point again and the marker
    /// is sealed; a dummy the same way; then his flank march, sealed on his
    /// page, rolled at the table (his page says whether it arrives) and
    /// revealed from his page. North, on his own page in Chromium, finishes
    /// his steps there and never reads a sealed name. Skipped by name where
    /// Chromium is not installed.
    #[test]
    fn ambushes_by_taps_and_a_flank_march_from_a_phone_in_chromium() {
        use crate::app::chromium::{Page, pair, serve};
        let Some((_driver, port)) = crate::app::deck::phones::browser::driver() else {
            return;
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("terrain.json");
        std::fs::write(&path, muster::fog::examples::TERRAIN_BATTLE).unwrap();
        let mut h = opened(dir.path(), path);
        click(&mut h, "Look at it read-only for now");
        let addr = serve(&mut h);
        let south = Page::open(port, &pair(&mut h, addr, Side::South), "fog-south");
        let north = Page::open(port, &pair(&mut h, addr, Side::North), "fog-north");
        south.type_into(&mut h, "//input[@type='password']", PASS);
        south.tap(&mut h, "Unlock");
        until(&mut h, |h| h.state().fog().battle.locked_sides().is_empty());
        camps(&mut h);
        until(&mut h, |h| {
            h.query_by_label("North places his ambushes on his phone.")
                .is_some()
        });
        north.tap(&mut h, "Finish my ambushes");
        south.tap(&mut h, "Syrian archers");
        let bg = secrets(&h).bg;
        let at = legal_ambush_point(&h, Side::South, AmbushContent::Bg { bg });
        let table = state(&h).settings.table;
        // Where that is on the drawing: y runs from the south edge up.
        let share = [at[0] / table.width, 1.0 - at[1] / table.depth];
        // The table takes taps once the laptop has sent it with his pick.
        let pickable = "//canvas[@aria-label='The table: tap to pick a point']";
        south.tap_canvas(&mut h, pickable, share);
        let verdict = south.find(&mut h, "//p[@class='verdict-good']");
        let words = south.runtime.block_on(verdict.text()).unwrap();
        assert!(
            words.contains("hidden from all of North's skirmisher area"),
            "{words}"
        );
        // His phone as he decides: the legality map, his pick, the verdict.
        south.show(&verdict, "end");
        south.screenshot("target/phone/fog-ambush.png");
        // The page drew the table anew with his pick: the second tap.
        south.tap_canvas(&mut h, pickable, share);
        until(&mut h, |h| state(h).deployment.ambushes.len() == 1);
        shows_none(&h, &[secrets(&h).archers]);
        south.find(&mut h, "//div[@class='title' and text()='Syrian archers']");
        // A dummy, by the same two taps; then his flank march.
        south.tap(&mut h, "Dummy");
        let at = legal_ambush_point(&h, Side::South, AmbushContent::Dummy);
        let share = [at[0] / table.width, 1.0 - at[1] / table.depth];
        south.tap_canvas(&mut h, pickable, share);
        south.find(&mut h, "//p[@class='verdict-good']");
        south.tap_canvas(&mut h, pickable, share);
        until(&mut h, |h| state(h).deployment.ambushes.len() == 2);
        south.tap(&mut h, "Finish my ambushes");
        until(&mut h, |h| {
            h.query_by_label("North records his flank marches on his phone.")
                .is_some()
        });
        north.tap(&mut h, "Done with my flank marches");
        let secrets = secrets(&h);
        for name in &secrets.names {
            south.click(&mut h, &format!("//label[contains(., '{name} marches')]"));
        }
        south.tap(&mut h, "Seal flank march");
        until(&mut h, |h| !state(h).deployment.flank_marches.is_empty());
        south.tap(&mut h, "Done with my flank marches");
        until(&mut h, |h| state(h).deployment.off_table.south.is_some());
        h.run();
        for name in std::iter::once(&secrets.archers).chain(&secrets.names) {
            assert!(
                !north.text().contains(name.as_str()),
                "{name} on North's page"
            );
        }
        // Rolled at the table, revealed from his page.
        deploy(&mut h, &secrets);
        to_arrival(&mut h);
        south.tap(&mut h, "Reveal to both players");
        until(&mut h, |h| {
            log(h).contains("South's flank march 1 is revealed (commitment checked)")
        });
        // The march is public now; the archers in ambush are not.
        assert!(!north.text().contains(&secrets.archers));
        assert!(
            h.query_by_label_contains("Pass to").is_none(),
            "no hand-over"
        );
    }

    /// From the last batch to the turn South's flank march arrives: no
    /// dismounting, commanders placed, who moves first, then two of
    /// South's turns with typed arrival dice (4 + 5, then 5 + 6). The
    /// march's modifier is sealed: the laptop shows no chances, and South's
    /// phone says each time whether it arrives.
    fn to_arrival(h: &mut egui_kittest::Harness<'_, crate::app::MusterApp>) {
        // North's chariots may dismount; none of South's may, so his
        // commitment of nothing follows by itself.
        click(h, "North: no dismounting");
        assert!(h.query_by_label("South: no dismounting").is_none());
        for side in ["North", "South"] {
            click(h, &format!("{side}: commanders placed"));
        }
        type_into(h, "South's die", "5");
        click(h, "Enter South's die");
        type_into(h, "North's die", "2");
        click(h, "Enter North's die");
        h.get_by_label_contains("), modifier sealed:");
        assert!(h.query_by_label_contains("Each roll: 2d6").is_none());
        click(h, "End South's turn 1");
        click(h, "End North's turn 1");
        type_into(h, "South's dice", "4 5");
        click(h, "Enter South's dice");
        until(h, |h| {
            log(h).contains("South's flank march 1: not yet (his word")
        });
        click(h, "End South's turn 2");
        click(h, "End North's turn 2");
        type_into(h, "South's dice", "5 6");
        click(h, "Enter South's dice");
        until(h, |h| log(h).contains("South's flank march 1: arrives"));
        // The reveal goes to his phone by itself: it comes before anything.
        h.run();
        h.get_by_label("South reveals a sealed record on his phone.");
    }

    /// The battle's state as the window holds it.
    fn state<'a>(
        h: &'a egui_kittest::Harness<'_, crate::app::MusterApp>,
    ) -> &'a muster::fog::battle::State {
        h.state().fog().battle.state()
    }

    /// The public log as both players read it.
    fn log(h: &egui_kittest::Harness<'_, crate::app::MusterApp>) -> String {
        let lines = h.state().fog().battle.log_lines();
        lines
            .into_iter()
            .map(|(l, _)| l)
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Every batch deployed from the laptop, South's sealed battle groups
    /// left off the table (he unticks them: the screen proposes them too).
    fn deploy(h: &mut egui_kittest::Harness<'_, crate::app::MusterApp>, secrets: &Secrets) {
        use muster::fog::battle::{DeploymentTurn, Phase, deployed_bgs};
        let mut hidden: Vec<usize> = secrets
            .marching
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        hidden.push(secrets.bg);
        while let Phase::Deployment(DeploymentTurn::Batch { side, number, size }) =
            h.state().fog().battle.phase()
        {
            let state = state(h).clone();
            let army = state.armies[side].clone().unwrap();
            let done = deployed_bgs(&state, side);
            let next: Vec<usize> = (0..army.bgs.len())
                .filter(|bg| !(done.contains(bg) || side == Side::South && hidden.contains(bg)))
                .take(size)
                .collect();
            for bg in (0..army.bgs.len()).filter(|bg| !done.contains(bg)) {
                let label = format!("{} (", army.bgs[bg].name);
                let ticked = h.get_by_label_contains(&label).accesskit_node().toggled()
                    == Some(egui::accesskit::Toggled::True);
                if ticked != next.contains(&bg) {
                    h.get_by_label_contains(&label).click();
                    h.run();
                }
            }
            click(h, &format!("Batch {number} deployed"));
        }
    }

    /// What South seals: a battle group to put in ambush and two to send
    /// on a flank march (as the form has them): names North never reads.
    struct Secrets {
        bg: usize,
        archers: String,
        marching: Vec<String>,
        names: Vec<String>,
    }

    fn secrets(h: &egui_kittest::Harness<'_, crate::app::MusterApp>) -> Secrets {
        let army = state(h).armies.south.clone().unwrap();
        let find = |name: &str| army.bgs.iter().position(|b| b.name == name).unwrap();
        let marching = [find("Ala Petriana"), find("Ala Indiana")];
        Secrets {
            bg: find("Syrian archers"),
            archers: "Syrian archers".into(),
            marching: marching.iter().map(usize::to_string).collect(),
            names: vec!["Ala Petriana".into(), "Ala Indiana".into()],
        }
    }
}
