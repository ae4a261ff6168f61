// A player's own screen on his phone: pairs with the laptop through the
// seat's socket (every message sealed by channel.js), draws the screen the
// laptop describes (muster_core::screen, the same description the laptop
// draws with egui) and sends back what he does. It reconnects after sleep,
// a lost network or a reload, and picks up where it was.
import { Channel } from './channel.js';
import { centre, corners, extent, firstView, hexAt, hexes, limits, name, numberAt, parse, short, stack as laid } from './hexmap.js';

const stateLine = document.getElementById('state');
const main = document.getElementById('screen');
const HEX = /^[0-9a-f]+$/;

function fromHex(text, length) {
  if (text.length !== 2 * length || !HEX.test(text)) return null;
  return Uint8Array.from(text.match(/../g), (b) => parseInt(b, 16));
}
const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const random = (n) => crypto.getRandomValues(new Uint8Array(n));

// The seat: its token from the path, its key from the fragment (which the
// browser never sends). Anything else is refused.
const pathMatch = /^\/seat\/([0-9a-f]{32})$/.exec(location.pathname);
const keyMatch = /^#k=([0-9a-f]{64})$/.exec(location.hash);
const token = pathMatch && fromHex(pathMatch[1], 16);
const key = keyMatch && fromHex(keyMatch[1], 32);

// This device's name for the seat, kept across reloads: the laptop lets
// only the first device to prove the key hold the seat.
function deviceId() {
  const slot = `muster-device-${pathMatch[1]}`;
  let id = localStorage.getItem(slot);
  if (!id || !fromHex(id, 16)) {
    id = toHex(random(16));
    localStorage.setItem(slot, id);
  }
  return id;
}

// The protocol this page speaks (src/seats/protocol.rs, VERSION): every
// message both ways is one of that module's types, tagged by "type".
const VERSION = 2;
// The laptop's beat comes every few seconds (server::Limits::heartbeat);
// this long without a word from it and the table is gone.
const QUIET_MS = 8000;

let socket = null;
let channel = null;
// What he entered on his screen: choices and text, sent as he goes for the
// rules' live checks; secrets (passphrases) kept apart and sent once, in
// the reply of the form they belong to, then forgotten.
let values = {};
let secrets = {};
// The suggestion last offered in each secret field.
let offered = {};
let screen = null;
let backoff = 1;
let stopped = false;
// Another tab of this phone holds the seat: this one waits to be looked
// at again, then takes it back.
let moved = false;
let retry = null;
// Tries in a row that reached nobody: the table may have stopped.
let failed = 0;
// When the laptop was last heard on this connection, and whether it is
// counted live (a message opened since the socket opened).
let heard = 0;
let live = false;

function say(text) {
  stateLine.textContent = text;
}

function send(message) {
  if (!socket || !channel || socket.readyState !== WebSocket.OPEN) return false;
  try {
    socket.send(channel.seal(new TextEncoder().encode(JSON.stringify(message))));
  } catch (e) {
    // Longer than an answer may be (a field typed far too long): not sent.
    say('That is too long to send: shorten what you typed');
    return false;
  }
  return true;
}

// Closes this connection as the page's own decision (its handlers go
// first, so the close that follows is not read as the laptop's).
function drop(then) {
  const old = socket;
  socket = null;
  channel = null;
  live = false;
  if (old) {
    old.onmessage = null;
    old.onclose = null;
    old.close();
  }
  then();
}

function again() {
  failed += 1;
  // Several tries and nobody answers: the laptop stopped, slept or left
  // the network. Its buttons would do nothing, so they go.
  if (failed >= 3) {
    screen = null;
    main.replaceChildren(el('p', { class: 'strong' },
      'The table does not answer. If the laptop is asleep, wake it: this page comes back by itself. If Muster on the laptop was closed or restarted, this code is from that earlier sitting: once the laptop starts the players\' screens again (Players\' screens), ask for a new code and scan it.'));
  }
  say(`Lost the table: reconnecting in ${backoff} s…`);
  // What is shown may be out of date and a tap would go nowhere: greyed
  // until the table answers.
  main.classList.add('stale');
  clearTimeout(retry);
  retry = setTimeout(connect, backoff * 1000);
  backoff = Math.min(backoff * 2, 8);
}

function connect() {
  if (stopped || moved || (socket && socket.readyState <= WebSocket.OPEN)) return;
  clearTimeout(retry);
  const phone = random(16);
  channel = null;
  live = false;
  socket = new WebSocket(`ws://${location.host}/ws/${pathMatch[1]}?c=${toHex(phone)}`);
  socket.binaryType = 'arraybuffer';
  heard = Date.now();
  socket.onmessage = (event) => {
    if (typeof event.data === 'string') {
      let hello = null;
      try { hello = JSON.parse(event.data); } catch (e) { /* refused below */ }
      if (!hello || hello.type !== 'hello') return socket.close();
      // A page from another build of Muster: the laptop's own page is
      // fetched again (once), never misread.
      if (hello.version !== VERSION) {
        stopped = true;
        say('Muster on the laptop was updated: reloading this page…');
        if (!sessionStorage.getItem('muster-reloaded')) {
          sessionStorage.setItem('muster-reloaded', '1');
          location.reload();
        }
        return;
      }
      const laptop = typeof hello.laptop === 'string' && fromHex(hello.laptop, 16);
      if (!laptop) return socket.close();
      channel = new Channel(key, token, phone, laptop);
      send({ type: 'join', version: VERSION, device: deviceId() });
      return;
    }
    let message;
    try {
      message = JSON.parse(new TextDecoder().decode(channel.open(new Uint8Array(event.data))));
    } catch (e) {
      say('A message did not open: reconnecting');
      return drop(again);
    }
    heard = Date.now();
    backoff = 1;
    failed = 0;
    live = true;
    main.classList.remove('stale');
    sessionStorage.removeItem('muster-reloaded');
    say('Connected: only you see this screen');
    if (message.type === 'screen') show(message.screen);
    else if (message.type === 'file') received(message.file);
  };
  socket.onclose = (event) => {
    socket = null;
    channel = null;
    live = false;
    if (event.code === 4005) {
      moved = true;
      screen = null;
      main.replaceChildren(
        el('p', { class: 'strong' }, 'This screen moved to your other tab.'),
        el('p', {}, 'Only one tab shows your screen. Coming back to this tab takes it back.'),
        el('button', { onclick: () => { moved = false; backoff = 1; connect(); } }, 'Use this tab'));
      return say('This screen moved to your other tab');
    }
    // Final words: this page stops, its buttons go, it says what to do.
    const final = {
      4001: 'This seat was paired again: scan the new code on the laptop.',
      4002: 'Another device holds this seat. If it is yours, take it back: on the laptop, Players\' screens, Pair … phone (new code), give your passphrase or PIN there, and scan the new code with this phone.',
      4003: 'This seat was let go: your private screens are on the laptop again, behind its hand-over screen. To use this phone again, ask for a new code.',
      4004: 'The table stopped the players\' screens: ask for a new code.',
      // A code of no seat the laptop has now: it was restarted since this
      // phone paired (or the seat was paired again or let go). No retry
      // can open it.
      4007: 'This code is from an earlier sitting: Muster on the laptop was restarted (or this seat was paired again) since this phone paired. To carry on here, ask at the table for a new code (Players\' screens, Pair … phone (new code)) and scan it with this phone.',
    }[event.code];
    if (final) {
      stopped = true;
      screen = null;
      main.replaceChildren(el('p', { class: 'strong' }, final));
      return say(final);
    }
    again();
  };
}

// The laptop's beat stopped (asleep, out of range, a socket silenced
// somewhere between): never "Connected" then. The page says so, drops the
// connection and comes back by itself.
setInterval(() => {
  if (!socket || stopped || moved) return;
  if (Date.now() - heard > QUIET_MS) drop(again);
}, 1000);

// Back from sleep or another app, or this tab looked at again: reconnect
// at once (a tab the seat moved from takes it back).
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') {
    moved = false;
    backoff = 1;
    connect();
  }
});

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const child of children) node.append(typeof child === 'string' ? phoneWords(child) : child);
  return node;
}

// The laptop's words for a pointer, said for a finger: "tap", not "click".
function phoneWords(text) {
  return text
    .replace(/\b([Cc])lick or tap\b/g, (_, c) => (c === 'C' ? 'Tap' : 'tap'))
    .replace(/\bClick(s|ed|ing)?\b/g, (_, end) => `Tap${{ s: 's', ed: 'ped', ing: 'ping' }[end] || ''}`)
    .replace(/\bclick(s|ed|ing)?\b/g, (_, end) => `tap${{ s: 's', ed: 'ped', ing: 'ping' }[end] || ''}`);
}

// A private printout the laptop made for him and sent sealed, in parts
// of one size (the Wi-Fi sees as many frames whatever the file holds):
// kept in this page only, as a file he opens or saves.
let parts = null;
let printed = null;

function received(file) {
  const { name, title, part, parts: count, length, data } = file;
  if (!Number.isInteger(part) || !Number.isInteger(count) || part < 0 || part >= count || count > 16) return;
  if (!parts || parts.name !== name || parts.count !== count) parts = { name, count, got: new Array(count).fill(null) };
  parts.got[part] = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  if (!parts.got.every((p) => p)) return;
  const whole = new Uint8Array(parts.got.reduce((n, p) => n + p.length, 0));
  parts.got.reduce((at, p) => (whole.set(p, at), at + p.length), 0);
  parts = null;
  if (printed) URL.revokeObjectURL(printed.url);
  const bytes = whole.slice(0, Math.min(length, whole.length));
  printed = { name, title, url: URL.createObjectURL(new Blob([bytes], { type: 'application/pdf' })) };
  redraw();
  window.scrollTo(0, 0);
}

// The printout he was sent, above his screen until the page is closed.
function printout() {
  if (!printed) return [];
  return [el('div', { class: 'item marked' },
    el('div', { class: 'title' }, printed.title),
    el('p', {}, 'Made by the laptop for you alone and sent sealed: nothing of it was written or shown there.'),
    el('a', { class: 'button', href: printed.url, download: printed.name, target: '_blank', rel: 'noopener' }, 'Open my private printout (PDF)'))];
}

// What the screen's forms hold, its own fields only: built from the
// screen's description, so an answer names no field of another screen
// (the laptop reads it into this screen's types and refuses any other).
function formValues() {
  const names = new Set();
  for (const b of (screen ? screen.blocks : [])) {
    if (b.block === 'form') for (const f of b.fields) names.add(f.name);
    if (b.block === 'table' && b.table.pick) names.add(b.table.pick.field);
  }
  const out = {};
  for (const name of names) if (values[name] !== undefined) out[name] = values[name];
  return out;
}

// His answer: what the screen's form holds, with the secrets of this
// screen's own fields only; they are forgotten once sent.
function reply(command) {
  const own = {};
  const secretFields = (screen ? screen.blocks : [])
    .filter((b) => b.block === 'form')
    .flatMap((b) => b.fields)
    .filter((f) => f.input.input === 'secret');
  for (const f of secretFields) {
    const typed = secrets[f.name] ?? f.input.fill ?? '';
    if (typed) own[f.name] = [typed];
  }
  secrets = {};
  // His answer carries his form: what comes back is the laptop's.
  clearTimeout(typing);
  typing = null;
  pending.clear();
  send({ type: 'reply', reply: { command, values: { ...formValues(), ...own } } });
}

// The action whose question is shown (by its command), if any: an act
// that cannot be taken back is sent only after a second "yes".
let asking = null;

// The table first, under the title: on a phone the drawing is what the
// choices below it are about (the laptop keeps it in its own pane).
// His screen: its title, what it asks first (its opening headings and
// questions), then its map or table right under them, with no scroll in
// between, then the rest.
function redraw() {
  if (!screen) return;
  const maps = screen.blocks.filter((b) => b.block === 'table' || b.block === 'hex_map');
  const rest = screen.blocks.filter((b) => !maps.includes(b));
  const lead = [];
  while (maps.length && rest.length && ['heading', 'strong', 'refusal'].includes(rest[0].block)) {
    lead.push(rest.shift());
    // A question's buttons stay with it.
    if (lead[lead.length - 1].block === 'strong' && rest.length && rest[0].block === 'actions') lead.push(rest.shift());
  }
  // His printout, once made, sits with the button that asked for it (at
  // the foot when this screen has none), never above what he is asked.
  const asks = screen.blocks.some((b) => b.block === 'printout');
  main.replaceChildren(el('h1', {}, screen.title), ...lead.flatMap(block), ...maps.flatMap(block), ...rest.flatMap(block), ...(asks ? [] : printout()));
}

function actions(list) {
  const out = [];
  const asked = list.find((a) => a.confirm && JSON.stringify(a.command) === asking);
  if (asked) {
    const yes = el('button', { onclick: () => { asking = null; reply(asked.command); } }, `Yes: ${asked.label}`);
    const no = el('button', { class: 'quiet', onclick: () => { asking = null; redraw(); } }, 'No');
    return [el('p', { class: 'strong' }, asked.confirm), yes, no];
  }
  for (const action of list) {
    const tapped = action.confirm
      ? () => { asking = JSON.stringify(action.command); redraw(); }
      : () => reply(action.command);
    // What cannot be taken back is set apart: outlined in red, asked
    // again before it is sent.
    const button = el('button', action.confirm ? { class: 'danger', onclick: tapped } : { onclick: tapped }, action.label);
    if (action.refused) button.disabled = true;
    out.push(button);
    if (action.refused) out.push(el('p', { class: 'why' }, action.refused));
    else if (action.hint) out.push(el('p', { class: 'why' }, action.hint));
  }
  return out;
}

let typing = null;
// Fields he changed here that the laptop has not shown back yet: a screen
// sent before his change reached it must not undo it.
const pending = new Set();

function changed(name) {
  if (name) pending.add(name);
  // What he typed so far, for the rules' live checks; never a secret.
  clearTimeout(typing);
  typing = setTimeout(() => {
    typing = null;
    send({ type: 'values', values: formValues() });
  }, 250);
}

const same = (a, b) => JSON.stringify(a || []) === JSON.stringify(b || []);
const samePoint = (a, b) => {
  const [p, q] = [a, b].map((v) => String((v || [])[0] || '').split(' ').map(Number));
  return p.length === 2 && q.length === 2 && p.every((x, i) => Math.abs(x - q[i]) < 1e-9);
};

// The laptop holds his form: what it says is chosen or picked replaces
// what the page kept (fields it used up come back empty, a hex he tapped
// goes where the form wants it), except a field he changed here that the
// laptop has not shown back yet.
function sync(next) {
  for (const b of next.blocks) {
    // A new suggestion replaces what he typed in its fields.
    if (b.block === 'form') {
      for (const f of b.fields) {
        if (f.input.input === 'secret' && f.input.fill && f.input.fill !== offered[f.name]) {
          delete secrets[f.name];
          offered[f.name] = f.input.fill;
        }
      }
    }
  }
  const adopt = (name, theirs, caughtUp) => {
    if (pending.has(name)) {
      if (!caughtUp) return;
      pending.delete(name);
    }
    if (theirs === undefined) delete values[name];
    else values[name] = theirs;
  };
  for (const b of next.blocks) {
    if (b.block === 'form') {
      for (const f of b.fields) {
        if (f.input.input !== 'choice') continue;
        const theirs = f.input.selected || [];
        adopt(f.name, theirs, same(theirs, values[f.name]));
      }
    }
    if (b.block === 'table' && b.table.pick) {
      const pick = b.table.pick;
      const theirs = pick.at ? [`${pick.at[0]} ${pick.at[1]}`] : undefined;
      adopt(pick.field, theirs, samePoint(theirs, values[pick.field]));
    }
  }
}

function field(f) {
  const input = f.input;
  const box = el('div');
  if (f.label) box.append(el('label', {}, f.label));
  if (input.input === 'choice' && !input.many) {
    for (const option of input.options) {
      const on = (values[f.name] || input.selected || []).includes(option.value);
      box.append(el('button', {
        class: 'choice', 'aria-pressed': String(on),
        onclick: () => {
          values[f.name] = [option.value];
          // Emptied, not dropped: the laptop merges what it is sent.
          for (const other of input.resets || []) {
            values[other] = [];
            pending.add(other);
          }
          changed(f.name);
          if (screen) show(screen);
        },
      }, option.label));
    }
  } else if (input.input === 'choice') {
    for (const option of input.options) {
      const ticked = (values[f.name] || input.selected || []).includes(option.value);
      const tick = el('input', { type: 'checkbox' });
      tick.checked = ticked;
      tick.addEventListener('change', () => {
        const list = (values[f.name] || input.selected || []).filter((v) => v !== option.value);
        if (tick.checked) list.push(option.value);
        values[f.name] = list;
        changed(f.name);
      });
      box.append(el('label', { class: 'check' }, tick, option.label));
    }
  } else if (input.input === 'secret') {
    // Never in `values`: a passphrase travels once, in its form's reply. A
    // suggested one (already shown to him) fills the field as typed.
    const text = el('input', { type: 'password', placeholder: input.hint || '', 'aria-label': f.label, autocomplete: 'off' });
    text.value = secrets[f.name] ?? input.fill ?? '';
    text.addEventListener('input', () => {
      secrets[f.name] = text.value;
      // A refusal spoke of what was typed before: a new passphrase is
      // not under it (it would read as this one's).
      for (const old of document.querySelectorAll('p.refusal.of-screen')) old.remove();
    });
    box.append(text);
  } else {
    const text = el('input', { type: 'text', placeholder: input.hint || '', 'aria-label': f.label });
    text.value = (values[f.name] || [])[0] ?? input.value ?? '';
    text.addEventListener('input', () => {
      values[f.name] = [text.value];
      changed(f.name);
    });
    box.append(text);
    if (input.problem) box.append(el('p', { class: 'refusal' }, input.problem));
  }
  return box;
}

function block(b) {
  switch (b.block) {
    case 'heading': return [el('h2', {}, b.text)];
    case 'text': return [el('p', {}, b.text)];
    case 'strong': return [el('p', { class: 'strong' }, b.text)];
    case 'refusal': return [el('p', { class: 'refusal of-screen' }, b.text)];
    case 'actions': return actions(b.actions);
    case 'item': {
      const title = el('div', { class: 'title' }, b.title);
      if (b.badge) title.prepend(el('span', { class: 'badge' }, b.badge));
      return [el('div', { class: b.badge ? 'item marked' : 'item' }, title, el('p', {}, b.text), ...actions(b.actions))];
    }
    case 'chart': {
      const bars = el('div', { class: 'bars', role: 'img', 'aria-label': b.title });
      for (const bar of b.bars) {
        const column = el('div', {}, el('span', {}, `${Math.round(bar.y)}%`));
        column.style.height = `${Math.max(0, Math.min(100, bar.y))}%`;
        bars.append(column);
      }
      return [el('p', {}, b.title), bars, el('p', { class: 'why' }, `${b.x_label}: ${b.bars.map((bar) => bar.x).join(', ')}`)];
    }
    case 'list': return [el('details', {}, el('summary', {}, b.title), ...b.items.map((i) => el('p', {}, i)))];
    case 'form': return [...b.fields.map(field), ...actions(b.actions)];
    case 'hex_map': return [hexMap(b.board)];
    case 'printout': return [
      el('button', { onclick: () => send({ type: 'printout' }) }, b.label),
      el('p', { class: 'why' }, b.hint),
      ...printout()];
    case 'table': return tableView(b.table);
    default: return [el('p', { class: 'why' }, 'Shown on the laptop')];
  }
}

// A canvas as wide as the page's column for a drawing `w` by `h` in its
// own unit, sharp on the phone's screen: drawn in CSS pixels, `scale` of
// them to the unit.
function drawing(w, h, label) {
  const width = Math.min((main.clientWidth || 390) - 28, 400);
  const scale = width / w;
  const canvas = el('canvas', { role: 'img', 'aria-label': label });
  const ratio = window.devicePixelRatio || 1;
  canvas.width = width * ratio;
  canvas.height = h * scale * ratio;
  canvas.style.width = `${width}px`;
  canvas.style.height = `${h * scale}px`;
  const g = canvas.getContext('2d');
  g.scale(ratio, ratio);
  return { canvas, g, scale, width };
}

// Each map's view (the map point at its pane's centre and the size of a
// hex, `hexmap.js`), kept across the screens the laptop sends: only the
// player moves it (a pinch, the wheel, a drag on empty ground, the
// buttons); a new screen, his own tap's answer included, never does.
const views = {};

// Counters' labels are drawn in Hack, the laptop's face, served with the
// page: its capital I and lower-case l differ ("I1" never reads as "l1").
const LABEL_FONT = 'Hack, monospace';
// Hack loaded: a map drawn before it came is drawn again (`hexMap`).
const labelFace = document.fonts ? document.fonts.load(`13px Hack`).catch(() => null) : Promise.resolve();

// A hex map by the rules every screen draws it with (the board's `rules`,
// muster_core::mapview): the hexes in view, each numbered once large
// enough to read, the hexes his form names, the counters he may see as
// tokens inside their own hex at every zoom, their labels shrinking with
// it, then their names alone, then a dot (his own marked), a stack as
// offset tokens with its count (`stack` in hexmap.js, as the laptop). The canvas is the pane: nothing scrolls
// under it. Two fingers pinch to zoom about them; one finger on one of his
// counters traces its path, hex by hex, drawn as it grows; elsewhere one
// finger pans; a tap lights its hex at once and sends it.
function hexMap(board) {
  const map = board.map;
  const rules = board.rules;
  const colours = rules.colours;
  // One view for each map, begun at its first view and moved only by him:
  // set-up turning to play, or his counters' screen coming and going,
  // leave it where he put it.
  const key = `${board.viewer || 'table'}:${map.columns}x${map.rows}:${map.first_column}:${map.first_row}:${map.orientation}`;
  const width = Math.min((main.clientWidth || 390) - 28, 402);
  const height = Math.round(Math.min(Math.max(window.innerHeight * 0.5, 240), 560));
  const pane = [width, height];
  const [least, most] = limits(map, pane, rules);
  const home = () => firstView(map, board.focus || [], pane, rules);
  const view = views[key] || (views[key] = home());
  const frame = el('div', { class: 'map-frame' });
  frame.style.width = `${width}px`;
  frame.style.height = `${height}px`;
  const canvas = el('canvas', { role: 'img' });
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  frame.append(canvas);
  const stack = el('p', { class: 'why', 'aria-live': 'polite' });
  const picked = new Set(board.highlight || []);
  const byHex = {};
  for (const c of board.counters) (byHex[c.hex] = byHex[c.hex] || []).push(c);
  // The stack he tapped last, listed from this board's counters (kept
  // with his view, so the laptop's answer does not take it away).
  const list = () => {
    const here = (view.listed && byHex[view.listed]) || [];
    stack.textContent = here.length > 1 ? `In ${view.listed}: ${here.map((c) => c.text).join(', ')}` : '';
  };
  list();
  // The hex his last tap lit, until the laptop's answer is drawn.
  let lit = null;
  let path = null;

  const toPane = ([x, y]) => [(x - view.x) * view.radius + width / 2, (y - view.y) * view.radius + height / 2];
  const toMap = (sx, sy) => [(sx - width / 2) / view.radius + view.x, (sy - height / 2) / view.radius + view.y];
  const inPane = ([sx, sy], room) => sx > -room && sx < width + room && sy > -room && sy < height + room;

  // Where each token was last drawn (pane pixels), in the order drawn:
  // the last one under a finger is the one it begins on.
  let drawn = [];

  // A label's width at a 1 px font.
  const em = (g, text) => {
    g.font = `${rules.label_px}px ${LABEL_FONT}`;
    return g.measureText(text).width / rules.label_px;
  };

  function token(g, c, text, px, [x0, y0, x1, y1]) {
    g.fillStyle = c.side === 'south' ? colours.south : colours.north;
    g.fillRect(x0, y0, x1 - x0, y1 - y0);
    if (c.face_up) {
      g.strokeStyle = colours.face_up;
      g.lineWidth = 2;
      g.strokeRect(x0 + 1, y0 + 1, x1 - x0 - 2, y1 - y0 - 2);
    }
    // His own: a white bar at the left, so he finds them at a glance.
    if (board.viewer && c.side === board.viewer) {
      g.fillStyle = '#fff';
      g.fillRect(x0, y0, Math.min(3, (x1 - x0) / 8), y1 - y0);
    }
    g.fillStyle = colours.ink;
    g.font = `${px}px ${LABEL_FONT}`;
    g.fillText(text, (x0 + x1) / 2, (y0 + y1) / 2);
  }

  function draw() {
    const r = view.radius;
    const numbers = r >= rules.numbered_radius;
    canvas.dataset.view = `${view.x} ${view.y} ${r}`;
    canvas.dataset.picked = [...picked].join(' ');
    canvas.setAttribute('aria-label', `${board.clicks ? phoneWords(board.clicks) : 'The map'}: hexes ${Math.round(2 * r)} pixels across${numbers ? ', hex numbers shown' : ''}`);
    const g = canvas.getContext('2d');
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, width, height);
    for (const hex of hexes(map)) {
      const here = name(hex.column, hex.row);
      const middle = toPane(centre(map, hex));
      if (!inPane(middle, r)) continue;
      g.beginPath();
      corners(map, hex).forEach((p, i) => (i ? g.lineTo(...toPane(p)) : g.moveTo(...toPane(p))));
      g.closePath();
      g.fillStyle = here === lit || picked.has(here) ? colours.picked : colours.hex;
      g.fill();
      g.strokeStyle = here === lit ? colours.path : colours.line;
      g.lineWidth = here === lit ? 3 : 1;
      g.stroke();
      if (numbers) {
        const [px, top] = numberAt(map, r, rules);
        g.fillStyle = colours.number;
        g.font = `${px}px sans-serif`;
        g.textAlign = 'center';
        g.textBaseline = 'top';
        g.fillText(here, middle[0], middle[1] - top * r);
      }
    }
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    drawn = [];
    for (const [hex, here] of Object.entries(byHex)) {
      const [sx, sy] = toPane(centre(map, parse(hex)));
      if (!inPane([sx, sy], 60)) continue;
      const shown = here.slice(0, rules.stack_shown);
      const ems = shown.map((c) => [em(g, c.text), em(g, short(c.text))]);
      const s = laid(map, r, ems, here.length, rules);
      if (!s) {
        // Too small for words: a dot of the front counter's side.
        g.beginPath();
        g.arc(sx, sy, Math.max(2, 0.5 * r), 0, 2 * Math.PI);
        g.fillStyle = here[0].side === 'south' ? colours.south : colours.north;
        g.fill();
        continue;
      }
      // The first counter in front, the others offset behind it.
      for (let k = shown.length - 1; k >= 0; k--) {
        const t = s.tokens[k];
        const box = [sx + t[0], sy + t[1], sx + t[2], sy + t[3]];
        token(g, shown[k], s.short ? short(shown[k].text) : shown[k].text, s.px, box);
        drawn.push({ counter: shown[k], box });
      }
      if (s.badge) {
        const [[bx, by], br] = s.badge;
        g.beginPath();
        g.arc(sx + bx, sy + by, br, 0, 2 * Math.PI);
        g.fillStyle = '#000';
        g.fill();
        g.fillStyle = '#fff';
        g.font = `bold ${0.85 * s.px}px sans-serif`;
        g.fillText(`${here.length}`, sx + bx, sy + by + 0.5);
      }
    }
    // Each token's hex and box, for a look from outside.
    canvas.dataset.tokens = JSON.stringify(drawn.map((d) => [d.counter.hex, ...d.box]));
    if (path) {
      g.strokeStyle = colours.path;
      g.lineWidth = Math.max(4, 0.18 * r);
      g.lineCap = 'round';
      g.lineJoin = 'round';
      g.beginPath();
      path.forEach((hex, i) => (i ? g.lineTo(...toPane(centre(map, parse(hex)))) : g.moveTo(...toPane(centre(map, parse(hex))))));
      g.stroke();
    }
  }

  // Zooms by `factor` about a point of the pane, which stays put.
  const zoomAbout = (sx, sy, factor) => {
    const [mx, my] = toMap(sx, sy);
    view.radius = Math.max(least, Math.min(most, view.radius * factor));
    view.x = mx - (sx - width / 2) / view.radius;
    view.y = my - (sy - height / 2) / view.radius;
    draw();
  };
  const [w, h] = extent(map);
  const controls = el('div', { class: 'map-controls' },
    el('button', { class: 'quiet', onclick: () => zoomAbout(width / 2, height / 2, 1.5), 'aria-label': 'Zoom the map in' }, '+'),
    el('button', { class: 'quiet', onclick: () => zoomAbout(width / 2, height / 2, 1 / 1.5), 'aria-label': 'Zoom the map out' }, '−'),
    el('button', { class: 'quiet', onclick: () => { Object.assign(view, { x: w / 2, y: h / 2, radius: least }); draw(); } }, 'Whole map'),
    el('button', { class: 'quiet', onclick: () => { Object.assign(view, home()); draw(); } }, 'My counters'));
  const words = board.clicks
    ? `${phoneWords(board.clicks)}. Pinch with two fingers to zoom; drag one of your counters to trace its path; drag elsewhere to move the map.`
    : 'Pinch with two fingers to zoom; drag to move the map.';
  draw();
  // Measured and drawn again in Hack once it is loaded.
  labelFace.then(() => draw());

  const at = (event) => {
    const box = canvas.getBoundingClientRect();
    const [x, y] = toMap(event.clientX - box.left, event.clientY - box.top);
    return hexAt(map, x, y);
  };
  const named = (hex) => name(hex.column, hex.row);
  // Fingers on the map now, by pointer id: where each is.
  const fingers = new Map();
  let pinch = null;
  let pan = null;
  let grabbed = null;
  canvas.style.touchAction = 'none';
  canvas.addEventListener('wheel', (event) => {
    event.preventDefault();
    const box = canvas.getBoundingClientRect();
    zoomAbout(event.clientX - box.left, event.clientY - box.top, Math.exp(-event.deltaY * 0.002));
  }, { passive: false });
  canvas.addEventListener('pointerdown', (event) => {
    fingers.set(event.pointerId, [event.clientX, event.clientY]);
    touching.add(event.pointerId);
    try {
      canvas.setPointerCapture(event.pointerId);
    } catch (_) {}
    if (fingers.size === 2) {
      // A second finger: a pinch, never a path or a tap.
      const [a, b] = [...fingers.values()];
      const box = canvas.getBoundingClientRect();
      pinch = {
        distance: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1,
        radius: view.radius,
        // The map's point under the fingers' middle.
        mid: toMap((a[0] + b[0]) / 2 - box.left, (a[1] + b[1]) / 2 - box.top),
      };
      path = null;
      pan = null;
      return;
    }
    // The token under his finger, the top one drawn last: its counter
    // goes, from its own hex; begun elsewhere in a hex of his, he is asked
    // which of his there goes.
    const box = canvas.getBoundingClientRect();
    const [fx, fy] = [event.clientX - box.left, event.clientY - box.top];
    const own = (c) => !board.viewer || c.side === board.viewer;
    const under = drawn.findLast(({ box: [x0, y0, x1, y1] }) => fx >= x0 && fx <= x1 && fy >= y0 && fy <= y1);
    grabbed = under && own(under.counter) ? under.counter : null;
    const hex = grabbed ? parse(grabbed.hex) : at(event);
    const mine = board.clicks && hex && board.counters.some((c) => c.hex === named(hex) && own(c));
    path = mine ? [named(hex)] : null;
    pan = { x: event.clientX, y: event.clientY, vx: view.x, vy: view.y, hex, moved: false };
  });
  canvas.addEventListener('pointermove', (event) => {
    if (!fingers.has(event.pointerId)) return;
    const before = fingers.get(event.pointerId);
    fingers.set(event.pointerId, [event.clientX, event.clientY]);
    if (pinch && fingers.size === 2) {
      const [a, b] = [...fingers.values()];
      const box = canvas.getBoundingClientRect();
      view.radius = Math.max(least, Math.min(most, pinch.radius * Math.hypot(a[0] - b[0], a[1] - b[1]) / pinch.distance));
      view.x = pinch.mid[0] - ((a[0] + b[0]) / 2 - box.left - width / 2) / view.radius;
      view.y = pinch.mid[1] - ((a[1] + b[1]) / 2 - box.top - height / 2) / view.radius;
      draw();
      return;
    }
    if (path) {
      // Every point the finger crossed since the last event, every few
      // pixels: a busy phone reports a fast finger once a frame, and a
      // hex it crossed between two reports is still on its path.
      const steps = Math.max(1, Math.ceil(Math.hypot(event.clientX - before[0], event.clientY - before[1]) / 3));
      for (let k = 1; k <= steps; k++) {
        const point = {
          clientX: before[0] + (event.clientX - before[0]) * k / steps,
          clientY: before[1] + (event.clientY - before[1]) * k / steps,
        };
        const hex = at(point);
        if (!hex) continue;
        const here = named(hex);
        if (here === path[path.length - 1]) continue;
        if (path.length >= 2 && here === path[path.length - 2]) path.pop();
        else path.push(here);
      }
      draw();
      return;
    }
    if (pan) {
      const dx = event.clientX - pan.x;
      const dy = event.clientY - pan.y;
      if (Math.hypot(dx, dy) > 8) pan.moved = true;
      if (pan.moved) {
        view.x = pan.vx - dx / view.radius;
        view.y = pan.vy - dy / view.radius;
        draw();
      }
    }
  });
  const lift = (event) => {
    fingers.delete(event.pointerId);
    touching.delete(event.pointerId);
    // What came while his fingers were down, drawn now (after this lift's
    // own message is sent).
    const later = () => {
      if (touching.size === 0 && deferred) {
        const next = deferred;
        deferred = null;
        show(next);
      }
    };
    if (pinch) {
      if (fingers.size === 0) pinch = null;
      return later();
    }
    const done = path;
    const tap = pan && !pan.moved ? pan.hex : null;
    path = null;
    pan = null;
    if (event.type === 'pointercancel' || !board.clicks) {
      draw();
      return later();
    }
    if (done && done.length > 1) send(grabbed ? { type: 'drag', hexes: done, counter: grabbed.id } : { type: 'drag', hexes: done });
    else if (done || tap) {
      const hex = done ? done[0] : named(tap);
      // Lit before anything is asked: he sees where his finger landed.
      lit = hex;
      view.listed = hex;
      list();
      send({ type: 'tap', hex });
    }
    draw();
    later();
  };
  canvas.addEventListener('pointerup', lift);
  canvas.addEventListener('pointercancel', lift);
  return el('div', {}, frame, stack, controls, el('p', { class: 'why' }, words));
}

// Whether each player's table shows the whole table (his choice), rather
// than his own ambush zone.
const tableViews = {};

// The part of the table his grid covers (the cells of his ambush zone,
// with a margin), or none: [x0, y0, x1, y1] in the table's unit.
function zoneOf(t) {
  const grid = t.grid;
  if (!grid) return null;
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  [...grid.cells].forEach((key, k) => {
    if (key === ' ') return;
    const x = (k % grid.columns) * grid.cell;
    const y = Math.floor(k / grid.columns) * grid.cell;
    [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x + grid.cell), Math.max(y1, y + grid.cell)];
  });
  if (x0 === Infinity) return null;
  const [w, h] = t.size;
  const m = 2;
  [x0, y0, x1, y1] = [Math.max(0, x0 - m), Math.max(0, y0 - m), Math.min(w, x1 + m), Math.min(h, y1 + m)];
  // Never taller than a phone's column comfortably shows: widened instead.
  const wide = (y1 - y0) / 1.4;
  if (x1 - x0 < wide) {
    const mid = (x0 + x1) / 2;
    [x0, x1] = [Math.max(0, mid - wide / 2), Math.min(w, mid + wide / 2)];
  }
  return [x0, y0, x1, y1];
}

// A grid cell's fill: its colour as a tint, or a pattern of it (hatching,
// dots) that no terrain is drawn with.
function cellFill(g, l) {
  const [r, gg, b, a] = l.colour;
  const css = `rgba(${r},${gg},${b},${a / 255})`;
  if (l.pattern !== 'hatch' && l.pattern !== 'dots') return css;
  const tile = document.createElement('canvas');
  tile.width = tile.height = 8;
  const t = tile.getContext('2d');
  t.strokeStyle = css;
  t.fillStyle = css;
  t.lineWidth = 2;
  t.beginPath();
  if (l.pattern === 'hatch') {
    for (const d of [-8, 0, 8]) {
      t.moveTo(d, 8);
      t.lineTo(d + 8, 0);
    }
    t.stroke();
  } else {
    t.arc(4, 4, 1.4, 0, 2 * Math.PI);
    t.fill();
  }
  return g.createPattern(tile, 'repeat');
}

// The same fill as a legend's swatch (CSS).
function swatchFill(l) {
  const [r, g, b, a] = l.colour;
  const css = `rgba(${r},${g},${b},${Math.max(a, 120) / 255})`;
  if (l.pattern === 'hatch') return `repeating-linear-gradient(-45deg, ${css} 0 2px, transparent 2px 5px)`;
  if (l.pattern === 'dots') return `radial-gradient(${css} 1.5px, transparent 2px) 0 0 / 6px 6px`;
  return css;
}

// The table to scale, from the laptop's own geometry (the screen's table
// block, in the table's unit, y from the south edge up): the pieces, the
// legality grid, his markers, the point he picked, and the key to every
// colour and pattern drawn. It opens on his own ambush zone, large enough
// to aim at; *Whole table* shows all of it. A tap picks a point and the
// laptop answers with the rules' verdict; a second tap on a legal point
// places the marker. Pinch to zoom, as on any page.
function tableView(t) {
  const [w, h] = t.size;
  // From his own side: South's edge (y = 0) at the bottom for South, the
  // table turned half round for North, as each stands at it.
  const turned = t.viewer === 'north';
  const own = turned ? 'North' : 'South';
  const far = turned ? 'South' : 'North';
  const zone = zoneOf(t);
  const slot = `table:${t.viewer || ''}`;
  const whole = !zone || tableViews[slot] === 'whole';
  const [x0, y0, x1, y1] = whole ? [0, 0, w, h] : zone;
  const label = `${whole ? 'The table' : 'Your ambush zone'} from your side (${own} edge at the bottom)${t.pick ? ': tap to pick a point' : ''}`;
  const { canvas, g, scale, width } = drawing(x1 - x0, y1 - y0, label);
  const height = (y1 - y0) * scale;
  canvas.dataset.view = `${x0} ${y0} ${x1} ${y1} ${turned ? 1 : 0}`;
  const px = (x, y) => (turned ? [(x1 - x) * scale, (y - y0) * scale] : [(x - x0) * scale, (y1 - y) * scale]);
  const unpx = (sx, sy) => (turned ? [x1 - sx / scale, y0 + sy / scale] : [x0 + sx / scale, y1 - sy / scale]);
  g.fillStyle = '#e4ead6';
  g.fillRect(0, 0, width, height);
  for (const piece of t.pieces) {
    g.beginPath();
    piece.points.forEach(([x, y], i) => (i ? g.lineTo(...px(x, y)) : g.moveTo(...px(x, y))));
    g.closePath();
    g.fillStyle = `rgb(${piece.fill.join(',')})`;
    g.fill();
    g.strokeStyle = '#555';
    g.stroke();
  }
  const grid = t.grid;
  const drawn = new Set();
  if (grid) {
    // A row's cells of one key in a run are one rectangle, and each key's
    // rectangles one path filled once: a few hundred shapes for the
    // thousands of cells (a phone redraws it on every answer to a tap).
    const fills = Object.fromEntries(grid.legend.map((l) => [l.key, cellFill(g, l)]));
    const paths = new Map();
    // By character, as the laptop counts them (a key may be any letter).
    const cells = [...grid.cells];
    const rows = Math.ceil(cells.length / grid.columns);
    for (let row = 0; row < rows; row += 1) {
      const cy = row * grid.cell;
      if (cy + grid.cell < y0 || cy > y1) continue;
      const first = row * grid.columns;
      const last = Math.min(first + grid.columns, cells.length);
      for (let start = first; start < last;) {
        const key = cells[start];
        let end = start + 1;
        while (end < last && cells[end] === key) end += 1;
        const [cx, ex] = [(start - first) * grid.cell, (end - first) * grid.cell];
        if (fills[key] && ex >= x0 && cx <= x1) {
          drawn.add(key);
          const [ax, ay] = px(cx, cy);
          const [bx, by] = px(ex, cy + grid.cell);
          if (!paths.has(key)) paths.set(key, new Path2D());
          paths.get(key).rect(Math.min(ax, bx), Math.min(ay, by), Math.abs(bx - ax), Math.abs(by - ay));
        }
        start = end;
      }
    }
    for (const [key, path] of paths) {
      g.fillStyle = fills[key];
      g.fill(path);
    }
  }
  g.font = '12px system-ui, sans-serif';
  g.textAlign = 'center';
  // The edges named, each where it is from his side, when in sight.
  g.fillStyle = 'rgba(0,0,0,0.6)';
  if ((turned ? y0 : y1) >= (turned ? 0 : h)) g.fillText(`${far} edge`, width / 2, 13);
  if ((turned ? y1 : y0) <= (turned ? h : 0)) g.fillText(`${own} edge (yours)`, width / 2, height - 5);
  const placed = [];
  const clear = (r) => placed.every((p) => r.x + r.w <= p.x || p.x + p.w <= r.x || r.y + r.h <= p.y || p.y + p.h <= r.y);
  for (const mark of t.marks) {
    const [x, y] = px(...mark.at);
    g.fillStyle = '#fff';
    g.beginPath();
    g.arc(x, y, 5, 0, 2 * Math.PI);
    g.fill();
    // Its words under it, or over it at the table's near edge; inside
    // the table at the sides; moved on until they cover no other words.
    const text = g.measureText(mark.label).width;
    const left = Math.max(0, Math.min(width - text - 6, x - text / 2 - 3));
    const tries = [7, -23, 25, -41, 43, -59, 61];
    let box = null;
    for (const dy of tries) {
      const r = { x: left, y: y + dy, w: text + 6, h: 16 };
      if (r.y >= 0 && r.y + r.h <= height && clear(r)) {
        box = r;
        break;
      }
    }
    if (!box) box = { x: left, y: Math.max(0, Math.min(height - 16, y + 7)), w: text + 6, h: 16 };
    placed.push(box);
    // Moved off its point: a leader line back to it, as on the printout.
    const nearest = [Math.max(box.x, Math.min(box.x + box.w, x)), Math.max(box.y, Math.min(box.y + box.h, y))];
    if (Math.hypot(nearest[0] - x, nearest[1] - y) > 9) {
      g.strokeStyle = 'rgba(0,0,0,0.75)';
      g.lineWidth = 1;
      g.beginPath();
      g.moveTo(x, y);
      g.lineTo(...nearest);
      g.stroke();
    }
    g.fillStyle = 'rgba(0,0,0,0.75)';
    g.fillRect(box.x, box.y, box.w, box.h);
    g.fillStyle = '#fff';
    g.fillText(mark.label, box.x + 3 + text / 2, box.y + 12);
  }
  const out = [canvas];
  if (zone) {
    out.push(el('button', {
      class: 'quiet',
      onclick: () => { tableViews[slot] = whole ? 'zone' : 'whole'; redraw(); },
    }, whole ? 'My ambush zone' : 'Whole table'));
  }
  const pick = t.pick;
  if (pick && pick.at) {
    const [x, y] = px(...pick.at);
    for (const [radius, colour, line] of [[10, '#fff', 4], [7, '#000', 2]]) {
      g.beginPath();
      g.arc(x, y, radius, 0, 2 * Math.PI);
      g.strokeStyle = colour;
      g.lineWidth = line;
      g.stroke();
    }
  }
  if (pick) {
    canvas.addEventListener('click', (event) => {
      const box = canvas.getBoundingClientRect();
      const [sx, sy] = [event.clientX - box.left, event.clientY - box.top];
      if (pick.at && pick.confirm) {
        const [x, y] = px(...pick.at);
        if (Math.hypot(sx - x, sy - y) < 24) return reply(pick.confirm);
      }
      const [tx, ty] = unpx(sx, sy);
      values[pick.field] = [`${tx} ${ty}`];
      pending.add(pick.field);
      send({ type: 'values', values: formValues() });
    });
    if (pick.verdict) out.push(el('p', { class: pick.legal ? 'verdict-good' : 'refusal' }, pick.verdict));
    if (pick.confirm) out.push(el('p', { class: 'why' }, 'Tap the point again to place it there.'));
  }
  // The key: what every colour and pattern in sight stands for, and
  // nothing that is not drawn.
  const key = [];
  if (grid) {
    for (const l of grid.legend.filter((l) => drawn.has(l.key))) {
      const swatch = el('span', { class: 'swatch' });
      swatch.style.background = swatchFill(l);
      key.push(el('p', { class: 'legend' }, swatch, l.meaning));
    }
  }
  // A colour is keyed only when a piece of it is in sight (its bounds
  // meet the part of the table drawn).
  const inSight = (piece) => {
    const xs = piece.points.map((p) => p[0]);
    const ys = piece.points.map((p) => p[1]);
    return Math.min(...xs) <= x1 && Math.max(...xs) >= x0 && Math.min(...ys) <= y1 && Math.max(...ys) >= y0;
  };
  const shown = new Set(t.pieces.filter(inSight).map((p) => p.fill.join(',')));
  for (const s of (t.key || []).filter((s) => shown.has(s.fill.join(',')))) {
    const swatch = el('span', { class: 'swatch' });
    swatch.style.background = `rgb(${s.fill.join(',')})`;
    key.push(el('p', { class: 'legend' }, swatch, s.meaning));
  }
  if (key.length) out.push(el('details', { open: '' }, el('summary', {}, 'Key to the table'), ...key));
  return out;
}

// Fingers down on a map now, and the screen that came meanwhile: a new
// screen is drawn once they lift, never under a finger (a redrawn map
// would drop the path he is tracing).
const touching = new Set();
let deferred = null;
// A finger the browser never reported lifted holds nothing back for long.
const HOLD_MS = 5000;
let holding = null;

function show(next) {
  if (touching.size > 0) {
    deferred = next;
    if (!holding) {
      holding = setTimeout(() => {
        holding = null;
        touching.clear();
        if (deferred) {
          const held = deferred;
          deferred = null;
          show(held);
        }
      }, HOLD_MS);
    }
    return;
  }
  clearTimeout(holding);
  holding = null;
  const asked = (s) => (s ? s.blocks.filter((b) => b.block === 'strong').map((b) => b.text).join('\n') : '');
  const question = (s) => (s ? `${s.title}\n${asked(s)}` : '');
  const fresh = question(next) !== question(screen);
  if (asked(next) && asked(next) !== asked(screen) && navigator.vibrate) navigator.vibrate(200);
  sync(next);
  screen = next;
  redraw();
  // A new question starts at its top, not where the last one was left.
  if (fresh) window.scrollTo(0, 0);
}

if (!token || !key) {
  say('This address is not a seat: scan the code on the laptop again');
} else {
  connect();
}
