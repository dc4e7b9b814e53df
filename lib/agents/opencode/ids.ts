// OpenCode's ids (1.18.33): `<prefix>_<12 hex><14 base62>`. The 12 hex are the low 48 bits of
// `ms * 4096 + counter`, big-endian; session ids invert them (newest sorts first), message and part ids do not,
// so their lexical order is their creation order. Ids are global primary keys: each one here is fresh.
import { randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const MASK = (1n << 48n) - 1n;

export type IdPrefix = 'ses' | 'msg' | 'prt';

/** Mints ids whose 48-bit time part strictly increases, whatever the clock does, so their order is kept. */
export class IdMinter {
  private last = 0n;

  constructor(private readonly clock: () => number = Date.now) {}

  /** A new id with `prefix`. */
  next(prefix: IdPrefix): string {
    const now = BigInt(this.clock()) * 4096n + 1n;
    this.last = now > this.last ? now : this.last + 1n;
    const value = prefix === 'ses' ? ~this.last & MASK : this.last & MASK;
    let random = '';
    for (let i = 0; i < 14; i += 1) random += BASE62[randomInt(62)];
    return `${prefix}_${value.toString(16).padStart(12, '0')}${random}`;
  }
}
