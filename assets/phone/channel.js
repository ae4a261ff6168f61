// The page's end of the players' screens channel: the frame format is the
// laptop's (src/seats/channel.rs), sealed with XChaCha20-Poly1305 from the
// vendored, audited noble-ciphers. The key comes from the URL fragment and
// never crosses the network; every frame is bound to its seat, direction,
// connection and place in the stream.
import { xchacha20poly1305 } from './noble-ciphers-2.3.0/chacha.js';

export const MAX_FRAME = 64 * 1024;
const LABEL = new TextEncoder().encode('muster-seat-1');
const HEADER = 8 + 24;
const TAG = 16;
// Every message one way is one size (src/seats/channel.rs): a screen fills
// a whole frame, an answer 4 KiB, so lengths tell the Wi-Fi nothing.
export const SCREEN_SIZE = MAX_FRAME - HEADER - TAG;
export const ANSWER_SIZE = 4096;
export const TO_PHONE = 0;
export const TO_LAPTOP = 1;

function seqBytes(seq) {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, seq);
  return out;
}

export class Channel {
  // The phone's end: `phone` and `laptop` are each end's random 16 bytes
  // for this connection.
  constructor(key, token, phone, laptop) {
    this.key = key;
    this.token = token;
    this.connection = new Uint8Array(32);
    this.connection.set(phone, 0);
    this.connection.set(laptop, 16);
    this.sent = 0n;
    this.received = 0n;
  }

  associated(direction, seq) {
    const aad = new Uint8Array(LABEL.length + 16 + 1 + 32 + 8);
    let at = 0;
    for (const part of [LABEL, this.token, Uint8Array.of(direction), this.connection, seqBytes(seq)]) {
      aad.set(part, at);
      at += part.length;
    }
    return aad;
  }

  // Seals the next message (bytes), padded to ANSWER_SIZE.
  seal(message, nonce = crypto.getRandomValues(new Uint8Array(24))) {
    if (4 + message.length > ANSWER_SIZE) throw new Error('message too long');
    const plain = new Uint8Array(ANSWER_SIZE);
    new DataView(plain.buffer).setUint32(0, message.length);
    plain.set(message, 4);
    this.sent += 1n;
    const sealed = xchacha20poly1305(this.key, nonce, this.associated(TO_LAPTOP, this.sent)).encrypt(plain);
    const frame = new Uint8Array(HEADER + sealed.length);
    frame.set(seqBytes(this.sent), 0);
    frame.set(nonce, 8);
    frame.set(sealed, HEADER);
    return frame;
  }

  // Opens the next frame from the laptop, or throws: a replayed, reordered,
  // altered or misdirected frame never opens.
  open(frame) {
    if (frame.length > MAX_FRAME || frame.length < HEADER + 4 + TAG) throw new Error('frame size');
    const seq = new DataView(frame.buffer, frame.byteOffset, 8).getBigUint64(0);
    if (seq !== this.received + 1n) throw new Error('frame out of sequence');
    const nonce = frame.subarray(8, HEADER);
    const plain = xchacha20poly1305(this.key, nonce, this.associated(TO_PHONE, seq)).decrypt(frame.subarray(HEADER));
    const len = new DataView(plain.buffer, plain.byteOffset, 4).getUint32(0);
    if (4 + len > plain.length || plain.length !== SCREEN_SIZE) throw new Error('malformed frame');
    for (let k = 4 + len; k < plain.length; k++) if (plain[k] !== 0) throw new Error('malformed frame');
    this.received = seq;
    return plain.slice(4, 4 + len);
  }
}
