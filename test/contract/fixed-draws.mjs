// Test-only preload (`node --import test/contract/fixed-draws.mjs <bin>`): makes where a session goes repeatable,
// so a test can learn the path from one run and plant something there before the next. The clock stands still
// at ASYNCAI_LOG_TEST_NOW (epoch ms), and the first ASYNCAI_LOG_TEST_DRAWS calls of `crypto.randomUUID` and of
// `crypto.randomInt` give a fixed value (then real random ones), so a writer that meets its own earlier file
// draws again. Plain JS: node loads it as it is.
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';

const now = Number(process.env.ASYNCAI_LOG_TEST_NOW);
const draws = Number(process.env.ASYNCAI_LOG_TEST_DRAWS ?? 0);

if (Number.isFinite(now) && now > 0) {
  const RealDate = Date;
  class FrozenDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(now);
      else super(...args);
    }
    static now() {
      return now;
    }
  }
  globalThis.Date = FrozenDate;
}

if (draws > 0) {
  const { randomUUID, randomInt } = crypto;
  let uuids = 0;
  let ints = 0;
  crypto.randomUUID = function fixedRandomUUID(...args) {
    uuids += 1;
    return uuids <= draws ? '0c0c0c0c-0c0c-4c0c-8c0c-0c0c0c0c0c0c' : randomUUID(...args);
  };
  crypto.randomInt = function fixedRandomInt(min, max, callback) {
    ints += 1;
    if (ints > draws * 14 || typeof callback === 'function' || typeof max === 'function') return randomInt(min, max, callback);
    return max === undefined ? 0 : min;
  };
  // `import { randomUUID } from 'node:crypto'` in the bin's modules sees the fixed one too.
  syncBuiltinESMExports();
}
