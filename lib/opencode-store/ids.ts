// The ids of OpenCode's layout (OpenCode 1.18.33, Kilo 7.7.7 the same): `<prefix>_<12 hex><14 base62>`. The 12 hex are the low 48 bits of
// `ms * 4096 + counter`, big-endian; session ids invert them (newest sorts first), message and part ids do not,
// so their lexical order is their creation order. Ids are global primary keys: each one here is fresh, except
// those a reopened session's earlier run minted, handed out again in their order.
import { randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const MASK = (1n << 48n) - 1n;

export type IdPrefix = 'ses' | 'msg' | 'prt';

/** Mints ids whose 48-bit time part strictly increases, whatever the clock does, so their order is kept. */
export class IdMinter {
  private last = 0n;
  private readonly recorded: string[];

  /**
   * `recorded`: the message and part ids an earlier run minted for the same session (a reopened one): handed
   * out again first, in the order they were minted (their time part), so mapping the same events again names
   * the same messages and parts; fresh ids follow them.
   */
  constructor(private readonly clock: () => number = Date.now, recorded: readonly string[] = []) {
    this.recorded = [...recorded].sort((a, b) => (a.slice(4, 16) < b.slice(4, 16) ? -1 : a.slice(4, 16) > b.slice(4, 16) ? 1 : 0));
    for (const id of this.recorded) {
      const value = BigInt(`0x${id.slice(4, 16)}`);
      if (value > this.last) this.last = value;
    }
  }

  /** A new id with `prefix`. */
  next(prefix: IdPrefix): string {
    const again = this.recorded.shift();
    if (again !== undefined) {
      if (!again.startsWith(`${prefix}_`)) throw new Error('the events no longer map to the messages written before');
      return again;
    }
    const now = BigInt(this.clock()) * 4096n + 1n;
    this.last = now > this.last ? now : this.last + 1n;
    const value = prefix === 'ses' ? ~this.last & MASK : this.last & MASK;
    let random = '';
    for (let i = 0; i < 14; i += 1) random += BASE62[randomInt(62)];
    return `${prefix}_${value.toString(16).padStart(12, '0')}${random}`;
  }
}
