// The realistic corpus of issue 35, a section module of bench/run.mjs (bench/sections.md): a tree of 1,000
// Claude Code sessions of 50 KB-20 MB each (about 2 GB) and one transcript of 200 MB holding a 30 MB tool
// result, both made by bench/transcripts.mjs and kept in --tree-dir. Every command of ours on them stays
// under the RSS limit; `read` of the big transcript is the row that holds the 30 MB line.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { generateTree } from './transcripts.mjs';

const positive = (values, name) => {
  const n = Number(values[name]);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} wants a positive number, got ${values[name]}`);
  return n;
};

export default {
  name: 'realistic',
  usage: `  --realistic-files N, --realistic-min-mb m, --realistic-mb M: the realistic tree (default 1000 sessions of
                      0.05-20 MB); --realistic-huge-mb M, --realistic-huge-result-mb R: the big transcript
                      (default 200 MB holding a 30 MB tool result); --realistic-reps N: runs each (default 2)`,
  options: {
    'realistic-files': { type: 'string', default: '1000' },
    'realistic-min-mb': { type: 'string', default: '0.05' },
    'realistic-mb': { type: 'string', default: '20' },
    'realistic-huge-mb': { type: 'string', default: '200' },
    'realistic-huge-result-mb': { type: 'string', default: '30' },
    'realistic-reps': { type: 'string', default: '2' },
  },
  quick: {
    'realistic-files': '6', 'realistic-min-mb': '0.02', 'realistic-mb': '0.2', 'realistic-huge-mb': '1', 'realistic-huge-result-mb': '0.3',
  },

  async measure(kit) {
    const v = kit.opts.values;
    const seed = kit.opts.seed;
    const files = Math.round(positive(v, 'realistic-files'));
    const minMb = positive(v, 'realistic-min-mb');
    const mb = positive(v, 'realistic-mb');
    const hugeMb = positive(v, 'realistic-huge-mb');
    const hugeResultMb = positive(v, 'realistic-huge-result-mb');
    const reps = Math.max(1, Math.round(positive(v, 'realistic-reps')));
    const treeRecipe = `node bench/transcripts.mjs --files ${files} --min-mb ${minMb} --mb ${mb} --seed ${seed}`;
    const hugeRecipe = `node bench/transcripts.mjs --files 1 --mb ${hugeMb} --huge-result-mb ${hugeResultMb} --seed ${seed}`;
    kit.log(`tree: ${treeRecipe}`);
    const tree = generateTree(join(kit.opts.treeDir, `claude-tree-${files}x${minMb}-${mb}mb-s${seed}`), { files, minMb, mb, seed });
    kit.log(`big transcript: ${hugeRecipe}`);
    const huge = generateTree(join(kit.opts.treeDir, `claude-huge-1x${hugeMb}mb-r${hugeResultMb}-s${seed}`), { files: 1, mb: hugeMb, hugeResultMb, seed });
    const [transcript] = huge.files;
    const bin = kit.bin;
    const out = (what) => {
      const dir = join(kit.work, `realistic-${what}`);
      return { dir, clean: () => rmSync(dir, { recursive: true, force: true }) };
    };
    const intoHuge = out('convert-big');
    const intoTree = out('convert-tree');
    const rows = await kit.runTools([
      {
        tool: 'read', label: 'asyncai-log read <the big transcript> > /dev/null',
        args: [bin, 'read', transcript], inputBytes: huge.bytes, inputEvents: huge.lines,
      },
      {
        tool: 'convert', label: 'asyncai-log convert <the big transcript> --session-dir claude-code-cli=<tmp> --jobs 1',
        perRun: () => [bin, 'convert', transcript, '--session-dir', `claude-code-cli=${intoHuge.dir}`, '--jobs', '1'],
        afterRun: intoHuge.clean, inputBytes: huge.bytes, inputEvents: huge.lines,
      },
      {
        tool: 'read-usage', label: `asyncai-log read --usage <the ${tree.files.length} transcripts>`,
        args: [bin, 'read', '--usage', ...tree.files], inputBytes: tree.bytes, inputEvents: tree.lines,
      },
      {
        tool: 'convert-j2', label: 'asyncai-log convert <the tree> --session-dir claude-code-cli=<tmp> --jobs 2',
        perRun: () => [bin, 'convert', join(tree.root, 'projects'), '--session-dir', `claude-code-cli=${intoTree.dir}`, '--jobs', '2'],
        afterRun: intoTree.clean, inputBytes: tree.bytes, inputEvents: tree.lines,
      },
    ], { reps });
    const inputOf = { read: 'big', convert: 'big', 'read-usage': 'tree', 'convert-j2': 'tree' };
    return {
      reps,
      tree: { files: tree.files.length, bytes: tree.bytes, records: tree.lines, recipe: treeRecipe },
      big: { bytes: huge.bytes, records: huge.lines, result_mb: hugeResultMb, recipe: hugeRecipe },
      rows: rows.map(({ raw, runs, status, note, tool, command, wall_s, cpu_s, peak_rss_mib, mb_per_s, load_average_1m }) => ({
        tool, input: inputOf[tool], command, status, ...(note ? { note } : {}), wall_s, cpu_s, peak_rss_mib, mb_per_s, runs, raw, load_average_1m,
      })),
    };
  },

  render(data, kit) {
    const { fmt } = kit;
    const out = [
      `Measured ${kit.date}: ${data.reps} run(s) of each, in turns; load average (1 min) ${kit.load_average_1m.map((l) => fmt(l, 1)).join(' at the start and ')}`,
      'at the end. The tree is `' + data.tree.recipe + `\` (${fmt(data.tree.files)} sessions, ${fmt(data.tree.bytes / 1e6, 1)} MB,`,
      `${fmt(data.tree.records)} records); the big transcript \`${data.big.recipe}\` (${fmt(data.big.bytes / 1e6, 1)} MB, ${fmt(data.big.records)} records).`,
      '',
      '| command | input | MB/s | wall s | CPU s | peak RSS MiB |',
      '|---|---|---:|---:|---:|---:|',
    ];
    for (const row of data.rows) {
      const input = row.input === 'big' ? 'big transcript' : 'tree';
      if (row.status !== 'ok') {
        out.push(`| \`${row.command}\` | ${input} | ${row.status}: ${row.note ?? ''} | | | |`);
        continue;
      }
      out.push(`| \`${row.command}\` | ${input} | ${fmt(row.mb_per_s, 1)} | ${fmt(row.wall_s, 2)} | ${fmt(row.cpu_s, 2)} | ${fmt(row.peak_rss_mib, 0)} |`);
    }
    return out.join('\n');
  },

  targets(data, kit) {
    return data.rows.filter((row) => row.status === 'ok' && row.raw?.peak_rss_mib)
      .map((row) => kit.rssTarget(`${row.tool} of the realistic ${row.input === 'big' ? 'big transcript' : 'tree'}`, row.raw.peak_rss_mib));
  },
};
