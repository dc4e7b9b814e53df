// The order `npm test` starts its files in (vitest.config.ts): the longest first, so that the run does not end
// waiting on one long file started late. A file's duration is the one vitest cached from its last run; an entry
// from before the suite had its projects (keyed by the path alone) counts too. Failed files first, as vitest
// does; files with no duration yet (a fresh clone) before the others: a real-CLI test (not `*.unit.test.ts`)
// first, then the larger file first.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const known = (spec: TestSpecification) => {
      const path = relative(config.root, spec.moduleId);
      return cache.getFileTestResults(`${spec.project.name}:${path}`) ?? cache.getFileTestResults(`:${path}`);
    };
    const size = (spec: TestSpecification) => cache.getFileStats(`${spec.project.name}:${relative(config.root, spec.moduleId)}`)?.size ?? 0;
    const unit = (spec: TestSpecification) => spec.moduleId.endsWith('.unit.test.ts');
    return [...files].sort((a, b) => {
      const [ra, rb] = [known(a), known(b)];
      if (!ra || !rb) {
        if (ra || rb) return ra ? 1 : -1;
        if (unit(a) !== unit(b)) return unit(a) ? 1 : -1;
        return size(b) - size(a);
      }
      if (ra.failed !== rb.failed) return ra.failed ? -1 : 1;
      return rb.duration - ra.duration;
    });
  }
}
