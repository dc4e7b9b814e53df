// The bundle's imports of Node's built-in modules (scripts/bundle.mjs): each becomes a getBuiltinModule of the
// names it takes, in every form rolldown writes, and a form it does not know fails the build.
import { describe, expect, test } from 'vitest';
// @ts-expect-error: a build script in plain JavaScript, without types
import { builtinsByName } from '../../scripts/bundle.mjs';

const rewrite = builtinsByName as (code: string) => string;

describe('builtinsByName', () => {
  test('named imports, renamed ones included, take those names from the module', () => {
    const code = 'import { existsSync, constants as constants$1, promises as fsp } from "node:fs";\nexistsSync(".");\n';
    expect(rewrite(code)).toBe('const { existsSync, constants: constants$1, promises: fsp } = process.getBuiltinModule("node:fs");\nexistsSync(".");\n');
  });

  test('a default or namespace import is the module itself, a path in its name included', () => {
    expect(rewrite('import v8 from "node:v8";')).toBe('const v8 = process.getBuiltinModule("node:v8");');
    expect(rewrite('import * as fsp from "node:fs/promises";')).toBe('const fsp = process.getBuiltinModule("node:fs/promises");');
  });

  test('the names are the module\'s own', () => {
    const { existsSync, constants: c } = new Function('process', rewrite('import { existsSync, constants as c } from "node:fs";\nreturn { existsSync, constants: c };'))(process);
    expect(existsSync).toBe(process.getBuiltinModule('node:fs').existsSync);
    expect(c).toBe(process.getBuiltinModule('node:fs').constants);
  });

  test('other imports, and imports not at the start of a line, are left as they are', () => {
    const code = 'import { a as b } from "./filter-x.js";\nimport yargs from "yargs";\nconst s = \'import { x } from "node:fs";\';\n';
    expect(rewrite(code)).toBe(code);
  });

  test('a form it does not handle fails the build', () => {
    expect(() => rewrite('import fs, { existsSync } from "node:fs";')).toThrow(/not handled: import fs, \{ existsSync \}/);
  });
});
