// The bin as few files as can be: tsc's dist/bin/asyncai-log.js and every module of ours it imports, bundled
// by rolldown into dist/bin/ (the yargs CLI, imported only when the plain filter's parser leaves the command
// line to it, in a chunk of its own). Loading 110 modules one by one took more CPU than a short run's work.
// yargs stays a package import: it finds its locales and our package.json from where it is installed.
// dist/lib/ stays as tsc wrote it: the library's API, and the worker threads' entry files, which the bundle
// names relative to dist/bin/. Run by scripts/build.mjs after tsc (tsc's dist/bin/ alone runs too, slower).
import { chmodSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

/** `new URL('./file.js', import.meta.url)` in a module under dist/lib/: a worker's entry file. */
const MODULE_URL = /new URL\((['"])(\.\.?\/[^'"]+)\1, import\.meta\.url\)/g;

/** A chunk's import of a Node built-in module: `import <what> from "node:<name>";`, one a line. */
const BUILTIN_IMPORT = /^import (.+) from "(node:[a-z0-9_/]+)";$/gm;

/**
 * The chunk with each import of a built-in module made a `process.getBuiltinModule()` of the names it takes.
 * An import makes Node build the module's ES facade, which reads every export, getters included: `node:fs`
 * alone then loaded fs/promises and the file streams, and each run paid for them.
 */
export function builtinsByName(code) {
  return code.replace(BUILTIN_IMPORT, (line, what, name) => {
    const module = `process.getBuiltinModule(${JSON.stringify(name)})`;
    const named = /^\{ ([\w$]+(?: as [\w$]+)?(?:, [\w$]+(?: as [\w$]+)?)*) \}$/.exec(what);
    if (named !== null) return `const { ${named[1].replaceAll(' as ', ': ')} } = ${module};`;
    const whole = /^(?:\* as )?([\w$]+)$/.exec(what);
    if (whole !== null) return `const ${whole[1]} = ${module};`;
    throw new Error(`bundle: an import of a built-in module in a form not handled: ${line}`);
  });
}

/** Bundle `root`'s dist/bin/asyncai-log.js into dist/bin/, which then holds only the bundle's files. */
export async function bundleBin(root) {
  const bin = join(root, 'dist', 'bin');
  // Beside dist/bin/ (a rename across file systems, from a tmpfs /tmp, would fail), and readable by everyone as
  // the rest of dist/ is (mkdtemp makes it 0700: another user could not run an installed copy).
  const out = mkdtempSync(join(root, 'dist', '.bin-'));
  chmodSync(out, 0o755);
  try {
    const bundle = await rolldown({
      input: join(bin, 'asyncai-log.js'),
      platform: 'node',
      external: [/^node:/, /^yargs(\/|$)/],
      logLevel: 'warn',
      plugins: [{
        name: 'worker-urls',
        // The bundle runs from dist/bin/: a URL relative to a module of dist/lib/ is made relative to dist/bin/.
        transform(code, id) {
          if (!id.includes(`${sep}dist${sep}lib${sep}`) || !code.includes('import.meta.url')) return null;
          return code.replace(MODULE_URL, (_, quote, path) => {
            const target = relative(bin, resolve(dirname(id), path)).split(sep).join('/');
            return `new URL(${quote}${target.startsWith('.') ? target : `./${target}`}${quote}, import.meta.url)`;
          });
        },
        renderChunk: (code) => builtinsByName(code),
      }],
    });
    await bundle.write({ dir: out, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' });
    await bundle.close();
    rmSync(bin, { recursive: true, force: true });
    renameSync(out, bin);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleBin(fileURLToPath(new URL('..', import.meta.url)));
