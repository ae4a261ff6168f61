//! A seat's life on the players' screens, as one state machine the table
//! shows by the player's name: unpaired, its code shown, on his phone, his
//! phone lost (gone quiet or closed; it may come back), let go, or stopped
//! with the players' screens. Only a seat on his phone (or lost, while it
//! may come back) keeps his private screens off the laptop; every other
//! state puts him on the hand-over screen at once.

/// Where a seat stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Life {
    #[default]
    Unpaired,
    /// Its code is shown; no device has taken the seat yet.
    CodeShown,
    /// His phone holds the seat.
    OnPhone,
    /// His phone went quiet or its socket closed: it may come back with
    /// the same code; the table may let the seat go meanwhile.
    Lost,
    /// The table let the seat go: his code opens nothing now.
    LetGo,
    /// The players' screens stopped (Stop, New, Open, quitting).
    Stopped,
    /// He plays from his own Muster, on another machine (a remote game):
    /// his screens, his key and his answers are there, never here.
    Remote,
}

/// Where a player's screens are when they are not on this laptop, in the
/// table's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Away {
    Phone,
    /// His own Muster, on his machine (a remote game).
    Machine,
}

impl Away {
    /// "on their phone".
    pub fn on(self) -> &'static str {
        match self {
            Away::Phone => "on their phone",
            Away::Machine => "on their own machine",
        }
    }

    /// What does it there: "phone".
    pub fn device(self) -> &'static str {
        match self {
            Away::Phone => "phone",
            Away::Machine => "own Muster",
        }
    }
}

/// What happens to a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A new code was made for it.
    Paired,
    /// A device proved the key and took it.
    Joined,
    /// Its device's socket closed, or its heartbeat stopped.
    Left,
    /// The table let it go.
    Released,
    /// The players' screens stopped.
    Stopped,
}

impl Life {
    /// The next state after `event`.
    pub fn after(self, event: Event) -> Life {
        match (self, event) {
            // A remote seat is no phone's: the players' screens do not
            // reach it.
            (Life::Remote, _) => Life::Remote,
            (_, Event::Stopped) => Life::Stopped,
            (_, Event::Released) => Life::LetGo,
            (_, Event::Paired) => Life::CodeShown,
            (Life::CodeShown | Life::OnPhone | Life::Lost, Event::Joined) => Life::OnPhone,
            (Life::OnPhone | Life::Lost, Event::Left) => Life::Lost,
            // A device of a seat let go, stopped or never paired changes
            // nothing: its code no longer opens the seat.
            (state, Event::Joined | Event::Left) => state,
        }
    }

    /// Whether his private screens go to his phone: while it holds the
    /// seat, or may come back to it.
    pub fn on_phone(self) -> bool {
        matches!(self, Life::OnPhone | Life::Lost)
    }

    /// Whether his private screens are anywhere but this laptop: on his
    /// phone, or on his own machine in a remote game. The laptop never
    /// hands itself to him then, nor asks his passphrase.
    pub fn away(self) -> bool {
        self.on_phone() || self == Life::Remote
    }

    /// Where his private screens are drawn: his own screen while his phone
    /// holds the seat (or may come back to it), else the laptop's.
    pub fn place(self) -> muster::core::seat::Place {
        if self.away() {
            muster::core::seat::Place::Own
        } else {
            muster::core::seat::Place::Laptop
        }
    }

    /// Where his screens are when not on this laptop.
    pub fn away_at(self) -> Option<Away> {
        if self.on_phone() {
            Some(Away::Phone)
        } else if self == Life::Remote {
            Some(Away::Machine)
        } else {
            None
        }
    }

    /// What the table says of the seat, after the player's name.
    pub fn words(self) -> &'static str {
        match self {
            Life::Unpaired => "on this laptop",
            Life::CodeShown => "their code is shown, waiting for their phone",
            Life::OnPhone => "on their phone",
            Life::Lost => "their phone is not answering",
            Life::LetGo => "on this laptop (their phone was let go)",
            Life::Stopped => "on this laptop (the players' screens stopped)",
            Life::Remote => "on their own Muster, on their machine",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_seat_its_phone_holds_keeps_its_screens_off_the_laptop() {
        let phone = Life::Unpaired.after(Event::Paired).after(Event::Joined);
        assert_eq!(phone, Life::OnPhone);
        assert!(phone.on_phone());
        let lost = phone.after(Event::Left);
        assert_eq!(lost, Life::Lost);
        assert!(lost.on_phone(), "a phone asleep may come back");
        assert_eq!(lost.after(Event::Joined), Life::OnPhone);
        for end in [Event::Released, Event::Stopped] {
            let gone = lost.after(end);
            assert!(!gone.on_phone(), "{end:?}");
            assert_eq!(
                gone.after(Event::Joined),
                gone,
                "its old code opens nothing"
            );
        }
        assert!(!Life::CodeShown.on_phone());
        assert_eq!(Life::Unpaired.after(Event::Joined), Life::Unpaired);
    }
}
