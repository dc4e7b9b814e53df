// Contract driver for Kilo, an OpenCode fork with OpenCode's layout: the driver of test/contract/store-driver.ts
// (a journal handed to `kilo import`; the real `kilo import` and `kilo run --session` against the mock).
import { continueWithKilo, kiloBinary, kiloHome } from '../../support/kilo.js';
import { storeDriver } from '../store-driver.js';

export const driver = storeDriver({
  format: 'kilo',
  programVariable: 'ASYNCAI_LOG_KILO',
  binary: kiloBinary,
  // The home's model takes images (Kilo replaces an image by an error text for a text-only model).
  home: kiloHome,
  continueWith: (home, dir, session) => continueWithKilo(home, dir, session),
  // Kilo adds an `<environment_details>` text (message time, working directory) to a user message it sends.
  ownText: (text) => /^\s*<environment_details>/.test(text),
});
