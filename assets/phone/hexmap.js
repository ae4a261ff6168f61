// The hex map's drawing geometry, as the laptop's (muster_core::hexmap):
// centres, corners, extent and the hex under a point, on a drawing where a
// hex's circumradius is 1. tests/phone_channel.rs checks both give the same
// figures.
const SQRT3 = Math.sqrt(3);

const shifted = (n, map) => (map.shifted === 'odd' ? n % 2 === 1 : n % 2 === 0);

export function name(column, row) {
  return String(column).padStart(2, '0') + String(row).padStart(2, '0');
}

export function parse(hex) {
  return { column: Number(hex.slice(0, hex.length - 2)), row: Number(hex.slice(-2)) };
}

export function* hexes(map) {
  for (let c = 0; c < map.columns; c++) {
    for (let r = 0; r < map.rows; r++) yield { column: map.first_column + c, row: map.first_row + r };
  }
}

export function centre(map, hex) {
  const c = hex.column - map.first_column;
  const r = hex.row - map.first_row;
  if (map.orientation === 'flat_top') {
    return [1 + 1.5 * c, SQRT3 * (r + (shifted(hex.column, map) ? 0.5 : 0) + 0.5)];
  }
  return [SQRT3 * (c + (shifted(hex.row, map) ? 0.5 : 0) + 0.5), 1 + 1.5 * r];
}

export function corners(map, hex) {
  const [cx, cy] = centre(map, hex);
  const start = map.orientation === 'flat_top' ? 0 : 30;
  return Array.from({ length: 6 }, (_, i) => {
    const a = ((start + 60 * i) * Math.PI) / 180;
    return [cx + Math.cos(a), cy + Math.sin(a)];
  });
}

export function extent(map) {
  return map.orientation === 'flat_top'
    ? [1.5 * map.columns + 0.5, SQRT3 * (map.rows + 0.5)]
    : [SQRT3 * (map.columns + 0.5), 1.5 * map.rows + 0.5];
}

export function hexAt(map, x, y) {
  let best = null;
  for (const hex of hexes(map)) {
    const [cx, cy] = centre(map, hex);
    const d = (cx - x) ** 2 + (cy - y) ** 2;
    if (d <= 1 && (!best || d < best.d)) best = { hex, d };
  }
  return best && best.hex;
}

// The first view of a map and the zoom limits, by the rules the laptop
// draws with (muster_core::mapview, sent with each board as its `rules`):
// `focus` framed with a margin, as large as fits, never below a readable
// hex nor above a framing one; no focus, the whole map by the same bounds.
// A view is the map point at the pane's centre and a hex's circumradius in
// pixels. tests/phone_channel.rs checks these give what the laptop gives.
export function firstView(map, focus, pane, rules) {
  const [w, h] = extent(map);
  const points = focus.map((hex) => centre(map, parse(hex)));
  // The box round some points, with the margin about it.
  const frame = (ps) => [
    Math.min(...ps.map((p) => p[0])) - rules.margin,
    Math.min(...ps.map((p) => p[1])) - rules.margin,
    Math.max(...ps.map((p) => p[0])) + rules.margin,
    Math.max(...ps.map((p) => p[1])) + rules.margin,
  ];
  let [x0, y0, x1, y1] = points.length ? frame(points) : [0, 0, w, h];
  const fits = Math.min(pane[0] / (x1 - x0), pane[1] / (y1 - y0));
  const radius = Math.min(Math.max(fits, rules.readable_radius), rules.framing_radius);
  // Too spread to frame readably: the most of the focus one pane holds
  // (mapview::Rules::first_view), the first point's pane that holds most.
  if (fits < radius) {
    const reach = (span) => Math.max(span / 2 / radius - rules.margin, 0);
    const [rx, ry] = [reach(pane[0]), reach(pane[1])];
    const near = (c) => points.filter((p) => Math.abs(p[0] - c[0]) <= rx && Math.abs(p[1] - c[1]) <= ry);
    let [most, best] = [0, null];
    for (const c of points) {
      const n = near(c).length;
      if (n > most) [most, best] = [n, c];
    }
    if (best) [x0, y0, x1, y1] = frame(near(best));
  }
  // No empty ground beyond the map's edge while its far side is cut off
  // (mapview::Rules::first_view).
  const inside = (at, size, span) => {
    const half = span / 2 / radius;
    return size <= 2 * half ? size / 2 : Math.min(Math.max(at, half), size - half);
  };
  return { x: inside((x0 + x1) / 2, w, pane[0]), y: inside((y0 + y1) / 2, h, pane[1]), radius };
}

export function limits(map, pane, rules) {
  const [w, h] = extent(map);
  const whole = Math.max(Math.min(pane[0] / w, pane[1] / h), 0.1);
  return [Math.min(whole, rules.readable_radius), rules.max_radius];
}

// A hex's number on a hex of `radius` pixels: its size in pixels and how
// far above the hex's centre its top goes (map units), as the laptop's
// (`mapview::Rules::number`, checked by tests/phone_channel.rs).
export function numberAt(map, radius, rules) {
  const px = Math.min(rules.number_max_px, Math.max(rules.number_px, rules.number_per_radius * radius));
  const [top, width] = map.orientation === 'flat_top' ? [0.74, 1.14] : [0.5, 1.73];
  return 2.4 * px <= width * radius ? [px, top] : [px, px / (2 * radius)];
}

// A counter's name alone, from its label (`mapview::short`): "I1" of "I1 (4)".
export const short = (label) => label.split(' ')[0];

// Whether a box ([left, top, right, bottom], pixels from a hex's centre)
// lies inside a hex of `radius` pixels.
function boxInside(map, radius, [x0, y0, x1, y1]) {
  const slack = 1e-9 * Math.max(radius, 1);
  const point = (x, y) => {
    [x, y] = [Math.abs(x), Math.abs(y)];
    return map.orientation === 'flat_top'
      ? y <= (SQRT3 / 2) * radius + slack && SQRT3 * x + y <= SQRT3 * radius + slack
      : x <= (SQRT3 / 2) * radius + slack && x + SQRT3 * y <= SQRT3 * radius + slack;
  };
  return point(x0, y0) && point(x1, y0) && point(x0, y1) && point(x1, y1);
}

const badgeBox = ([[x, y], b]) => [x - b, y - b, x + b, y + b];

// The stack's boxes at labels of `px` (`mapview::Rules::stack_at`).
function stackAt(radius, ems, count, px, rules) {
  const scale = px / rules.label_px;
  const [padX, padY] = rules.token_padding;
  const h = px + padY * scale;
  const step = rules.stack_step_px * scale;
  const tokens = ems.map((em, k) => {
    const w = em * px + padX * scale;
    const [x, y] = [k * step, k * h];
    return [x - w / 2, y - h / 2, x + w / 2, y + h / 2];
  });
  let badge = count > ems.length ? [[tokens[0][2], tokens[0][1]], h / 2] : null;
  const all = badge ? [...tokens, badgeBox(badge)] : tokens;
  const x0 = Math.min(...all.map((t) => t[0]));
  const y0 = Math.min(...all.map((t) => t[1]));
  const x1 = Math.max(...all.map((t) => t[2]));
  const y1 = Math.max(...all.map((t) => t[3]));
  const [dx, dy] = [-(x0 + x1) / 2, rules.token_drop * radius - (y0 + y1) / 2];
  const moved = tokens.map((t) => [t[0] + dx, t[1] + dy, t[2] + dx, t[3] + dy]);
  if (badge) badge = [[badge[0][0] + dx, badge[0][1] + dy], badge[1]];
  return { px, short: false, tokens: moved, badge };
}

// The largest stack from `label_px` down to `min_label_px` that fits
// (`mapview::Rules::sized`), halved 24 times as on the laptop.
function sized(map, radius, ems, count, rules) {
  const fits = (px) => {
    const s = stackAt(radius, ems, count, px, rules);
    return s.tokens.every((t) => boxInside(map, radius, t)) && (!s.badge || boxInside(map, radius, badgeBox(s.badge))) ? s : null;
  };
  const whole = fits(rules.label_px);
  if (whole) return whole;
  if (!fits(rules.min_label_px)) return null;
  let [lo, hi] = [rules.min_label_px, rules.label_px];
  for (let k = 0; k < 24; k++) {
    const mid = (lo + hi) / 2;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return fits(lo);
}

// A hex's stack on a hex of `radius` pixels, as the laptop lays it
// (`mapview::Rules::stack`, checked by tests/phone_channel.rs): `ems` are
// the shown labels' widths at a 1 px font, whole and short, front first;
// `count` the counters in the hex. Each token's box (pixels from the hex's
// centre) and the count's badge ([centre, radius]) inside the hex, the
// labels shrunk with it, then the names alone; null (a dot) when not even
// those fit.
export function stack(map, radius, ems, count, rules) {
  if (!ems.length) return null;
  for (const isShort of [false, true]) {
    const s = sized(map, radius, ems.map((e) => e[isShort ? 1 : 0]), count, rules);
    if (s) return { ...s, short: isShort };
  }
  return null;
}
