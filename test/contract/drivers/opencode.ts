// Contract driver for OpenCode: the driver of test/contract/store-driver.ts (a journal handed to
// `opencode import`; the real `opencode import` and `opencode run --session` against the mock).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { continueWithOpencode, opencodeBinary, opencodeHome } from '../../support/opencode.js';
import { storeDriver } from '../store-driver.js';

export const driver = storeDriver({
  format: 'opencode',
  programVariable: 'ASYNCAI_LOG_OPENCODE',
  binary: opencodeBinary,
  home: (baseUrl) => {
    const home = opencodeHome(baseUrl);
    // The mock model takes images (OpenCode replaces an image by an error text for a text-only model).
    const config = join(home.env.XDG_CONFIG_HOME!, 'opencode', 'opencode.json');
    const parsed = JSON.parse(readFileSync(config, 'utf8'));
    Object.assign(parsed.provider.mock.models['mock-model'], { attachment: true, modalities: { input: ['text', 'image'], output: ['text'] } });
    writeFileSync(config, JSON.stringify(parsed));
    return home;
  },
  continueWith: (home, dir, session) => continueWithOpencode(home, dir, session),
});
