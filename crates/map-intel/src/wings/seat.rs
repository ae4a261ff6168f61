//! Dummy wings' seats (RULES-map-intel B2-B4): each player's private
//! screen is his counters (`screens::counters`), as `crate::seat` says of
//! every map system's.

use super::events::Event;
use super::game::{Command, Game};
use super::screens;
use crate::seat::counters_seat;

counters_seat!(
    Game, Event, Command, screens::CountersAct, screens::CountersField, "my counters",
    screen: |game: &Game, side, values| screens::counters(game, &game.view(side), side, values),
    answer: screens::answer,
    // A counter placed or moved: its hexes and units are spent.
    spent: {
        use screens::CountersField::*;
        &[Leader, Dis1, Dis2, LeaderPath, Dis1Path, Dis2Path, Next, Units, Detached, Dragged, Piece]
    },
    tapped: screens::clicked,
    dragged: super::drag::dragged,
    printout: |game: &Game, side, key: Option<&muster_core::intel::PlayerKey>| {
        super::export::ledger_pdf(game, side, key.into(), muster_core::pdf::Paper::A4)
            .map(|pdf| (super::export::ledger_title(game, side), pdf))
    },
    // A Wing whose line was called clear: shown by its owner's key at once.
    forced: Game::forced,
    // A player who began without a passphrase sets his on his own machine.
    set_lock: |game: &mut Game, side, lock, key| {
        game.ledger_mut().prepare_lock(side, key)?;
        Ok(Command::SetPassphrase { side, lock })
    },
);
