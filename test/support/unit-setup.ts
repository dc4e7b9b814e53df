// The unit run's global setup (vitest.unit.config.ts): no build and no real CLI, only the run's own empty HOME,
// checked empty at the end, as in the whole suite (test/support/sandbox-home.ts).
import { sandboxHome } from './sandbox-home.js';

export default function setup(): () => void {
  return sandboxHome();
}
