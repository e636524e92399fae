/**
 * Bundle sizes. The CDN build splits: `dist/cdn/merchant-checkout.js` is what the first render
 * needs (no static import), and the rest loads on demand as `merchant-checkout-<name>.js` chunks
 * beside it. Measured here: the first-render file against the goal and the limit, every lazy
 * chunk, what a payer downloads for each typical screen, the single file of the round before
 * the split (built again from its commit), the npm entry bundled the way a merchant's bundler
 * would, a baseline of Lit alone, and what each part of the first-render file adds (the CDN
 * build made again with that part left out, and small builds of a dependency on its own).
 * Deterministic: no timing.
 *
 *   npm run bench -- --only bundle     this part alone, printed (about 30 s with the build)
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin, type Rolldown } from 'vite';
import { type Language, LANGUAGES } from '../src/element/i18n/lang.js';
import { sizesOf, type Sizes } from './lib.js';
import { cssLiterals } from '../scripts/css-literals.js';

const root = fileURLToPath(new URL('..', import.meta.url));

export const CDN_DIR = `${root}dist/cdn/`;
export const CDN_FILE = `${CDN_DIR}merchant-checkout.js`;
const CDN_ENTRY = `${root}src/element/cdn.ts`;

/** Goal of the issue; 1 KB = 1,000 bytes (the stricter reading). */
export const BROTLI_GOAL = 24_000;
/**
 * The limits `npm test` holds the first-render file to (gzip; brotli: issue 28's size before the
 * ten languages), declared with that test.
 */
export { BROTLI_BEFORE_LANGUAGES, GZIP_LIMIT } from '../test/e2e/support/cdn-limits.js';
/** Each language's chunk stays within this, brotli. */
export const LANGUAGE_CHUNK_LIMIT = 3_000;

/**
 * The round before the split: everything in one CDN file. Built again from this commit in each
 * run; the figures its BENCHMARKS.md recorded are the fallback when that build fails.
 */
export const BEFORE_COMMIT = 'd62e661';
const BEFORE_RECORDED: Sizes = { raw: 84_699, gzip: 29_307, brotli: 25_643 };

/** The element's languages, each a chunk of its own (`merchant-checkout-<language>.js`). */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  ru: 'Russian',
  bn: 'Bengali',
  uz: 'Uzbek (Latin)',
  az: 'Azerbaijani',
  es: 'Spanish',
  ko: 'Korean',
  kk: 'Kazakh',
  tg: 'Tajik',
  ky: 'Kyrgyz',
};

/** When the element loads each lazy chunk (`merchant-checkout-<name>.js`). */
const CHUNK_ROLES: Record<string, string> = {
  ...Object.fromEntries(
    LANGUAGES.map((language) => [language, `${LANGUAGE_NAMES[language]} strings (the payer's language: one of ${LANGUAGES.length})`]),
  ),
  views: "the screens' model and templates: every invoice screen, loaded with the language",
  'qr-matrix': 'QR encoder: a deal with a QR code',
  lettermark: "bank lettermarks: the waiting screen's bank",
  directory: 'bank directory (names, apps, ranks): bank names on the waiting screen, the picker',
  'picker-view': 'SBP bank picker (phone)',
  sbp: 'SBP links to bank apps (phone)',
  forms: 'receipt and dispute forms: the checking screen, a missing payment',
  sse: "the event stream reader and the tabs' shared streams: after the first read of an invoice that can still change",
};

/** What a payer downloads for each typical screen: the first-render file, the language, these chunks. */
const SCREENS: { screen: string; chunks: string[] }[] = [
  { screen: 'waiting screen (requisites, QR code, bank)', chunks: ['views', 'qr-matrix', 'lettermark', 'directory', 'sse'] },
  {
    screen: 'bank picker on a phone (after the waiting screen)',
    chunks: ['views', 'qr-matrix', 'lettermark', 'directory', 'sse', 'picker-view', 'sbp'],
  },
  { screen: 'checking screen (after the waiting screen)', chunks: ['views', 'qr-matrix', 'lettermark', 'directory', 'sse', 'forms'] },
];
/** The languages of the per-screen totals. */
const SCREEN_LANGUAGES = ['en', 'ru'] as const;

/** Code of a module that replaces a part of the bundle (given the module's own source), keyed by the end of its path. */
type Stubs = Record<string, (source: string) => string>;

const VIRTUAL = '\0bench-virtual:';

/** As scripts/build.js does for the CDN files: qrcode's text splitter replaced by ours. */
const qrSegments: Plugin = {
  name: 'qr-segments',
  enforce: 'pre',
  resolveId(source, importer) {
    const inQrCore = importer?.replace(/\\/g, '/').includes('/qrcode/lib/core/');
    if (inQrCore && (source === './segments' || source === './regex')) return `${root}src/element/qr-segments.ts`;
    return undefined;
  },
};

/**
 * One ES module and its chunks, minified whole, with scripts/build.js's resolve conditions,
 * define, target, qr-segments plugin and output minification, from a file or from source text.
 * `cdn: true` adds the rest of the CDN build's options (entry name, `preserveEntrySignatures:
 * 'allow-extension'`, chunk names), so that the entry chunk is the first-render file.
 */
export const bundle = async (
  entry: { file: string } | { code: string },
  options: { stubs?: Stubs; cdn?: boolean } = {},
): Promise<Rolldown.OutputChunk[]> => {
  const stubs = options.stubs ?? {};
  const entryId = 'code' in entry ? 'bench-entry' : entry.file;
  const plugin: Plugin = {
    name: 'bench-stubs',
    enforce: 'pre',
    resolveId(id) {
      if ('code' in entry && id.endsWith(entryId)) return `${VIRTUAL}entry.js`;
      return undefined;
    },
    // A stub keeps its module's path, so that what it still imports resolves as before.
    async load(id) {
      if (id === `${VIRTUAL}entry.js` && 'code' in entry) return entry.code;
      const file = id.replace(/\\/g, '/');
      const stub = Object.keys(stubs).find((end) => file.endsWith(`/${end}`));
      return stub === undefined ? undefined : stubs[stub]!(await readFile(id, 'utf8'));
    },
  };
  const output = await build({
    configFile: false,
    root,
    logLevel: 'silent',
    publicDir: false,
    define: { 'process.env.NODE_ENV': '"production"' },
    resolve: { conditions: ['browser', 'production'] },
    plugins: [plugin, qrSegments, cssLiterals],
    build: {
      write: false,
      target: 'es2022',
      minify: true,
      sourcemap: false,
      lib: { entry: { [options.cdn ? 'merchant-checkout' : 'bundle']: entryId }, formats: ['es'] },
      rolldownOptions: {
        ...(options.cdn ? { preserveEntrySignatures: 'allow-extension' as const } : {}),
        output: {
          minify: true,
          comments: { annotation: false },
          ...(options.cdn ? { chunkFileNames: 'merchant-checkout-[name].js' } : {}),
        },
      },
    },
  });
  const results = Array.isArray(output) ? output : [output];
  return results
    .flatMap((result) => ('output' in result ? result.output : []))
    .filter((item): item is Rolldown.OutputChunk => item.type === 'chunk');
};

/** The entry chunk and every chunk it imports statically: what a page loads before the first render. */
const firstRender = (chunks: Rolldown.OutputChunk[]): Rolldown.OutputChunk[] => {
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const entries = chunks.filter((chunk) => chunk.isEntry);
  if (entries.length !== 1) throw new Error(`expected one entry chunk, got ${entries.length}`);
  const seen = new Set<Rolldown.OutputChunk>();
  const visit = (chunk: Rolldown.OutputChunk): void => {
    if (seen.has(chunk)) return;
    seen.add(chunk);
    for (const name of chunk.imports) {
      const imported = byName.get(name);
      if (imported) visit(imported);
    }
  };
  visit(entries[0]!);
  return [...seen];
};

/** The entry chunk alone (the CDN builds keep everything of the first render in it). */
const entryCode = (chunks: Rolldown.OutputChunk[]): string => {
  const [main, ...others] = firstRender(chunks);
  if (others.length > 0) throw new Error(`the entry chunk imports ${others.map((chunk) => chunk.fileName).join(', ')} statically`);
  return main!.code;
};

const sum = (list: Sizes[]): Sizes =>
  list.reduce<Sizes>((total, s) => ({ raw: total.raw + s.raw, gzip: total.gzip + s.gzip, brotli: total.brotli + s.brotli }), {
    raw: 0,
    gzip: 0,
    brotli: 0,
  });
const minus = (a: Sizes, b: Sizes): Sizes => ({ raw: a.raw - b.raw, gzip: a.gzip - b.gzip, brotli: a.brotli - b.brotli });

const LIT_ELEMENT = `
import { LitElement, html, css } from 'lit';
class BenchEmpty extends LitElement {
  static properties = { name: {} };
  static styles = css\`:host { display: block }\`;
  render() { return html\`<p>\${this.name}</p>\`; }
}
customElements.define('bench-empty', BenchEmpty);
`;

const LIT_TASK_ELEMENT = `
import { LitElement, html, css } from 'lit';
import { Task } from '@lit/task';
class BenchTask extends LitElement {
  static properties = { name: {} };
  static styles = css\`:host { display: block }\`;
  task = new Task(this, { args: () => [this.name], task: async ([name]) => name });
  render() { return this.task.render({ complete: (value) => html\`<p>\${value}</p>\` }); }
}
customElements.define('bench-task', BenchTask);
`;

const exportedConsts = (source: string): string[] => [...source.matchAll(/^export const (\w+)/gm)].map((match) => match[1]!);

const VALIDATION_ALONE = async (): Promise<string> => {
  const names = exportedConsts(await readFile(`${root}src/schemas/browser.generated.ts`, 'utf8'));
  return `
import { ${names.join(', ')} } from '${root}src/schemas/browser.generated.ts';
import { validateJson } from '${root}src/schemas/json-schema.ts';
export const check = (value) => [${names.join(', ')}].map((schema) => validateJson(schema, value));
`;
};

/**
 * Parts of the first-render file left out of the CDN build, each replaced by the least code that
 * keeps it building. (The translations and the QR encoder are lazy chunks now: measured above.)
 */
const LEAVE_OUT: { part: string; stubs: Stubs }[] = [
  {
    part: 'answer validation (generated JSON Schemas + validator)',
    stubs: {
      'schemas/browser.generated.ts': (source) =>
        exportedConsts(source)
          .map((name) => `export const ${name} = {};`)
          .join('\n'),
      'schemas/json-schema.ts': () => 'export const validateJson = (schema, value) => ({ success: true, data: value });',
    },
  },
  { part: 'styles (CSS)', stubs: { 'element/merchant-checkout.styles.ts': () => 'export const styles = [];' } },
  {
    part: 'boot strings of the ten languages (the loading screen before the language arrives, the offline error)',
    stubs: {
      'i18n/boot.ts': () => `export const BOOT_STRINGS = { ${LANGUAGES.map((language) => `${language}: {}`).join(', ')} };`,
    },
  },
];

export interface Contribution {
  part: string;
  how: string;
  sizes: Sizes;
}

export interface ChunkResult {
  /** `<name>` of `merchant-checkout-<name>.js`. */
  name: string;
  role: string;
  sizes: Sizes;
  /** Its hash in dist/cdn/integrity.json matches the file. */
  integrity: boolean;
}

export interface ScreenResult {
  screen: string;
  chunks: string[];
  /** Sum of the files, each compressed on its own as a CDN serves it, for an English and a Russian payer. */
  en: Sizes;
  ru: Sizes;
}

export interface BeforeResult {
  commit: string;
  sizes: Sizes;
  /** True: built in this run from `git archive <commit>`; false: the figures its BENCHMARKS.md recorded. */
  built: boolean;
  /** Why the build failed, when it did. */
  failure?: string;
}

export interface BundleResult {
  /** The first-render file as built. */
  cdn: Sizes;
  chunks: ChunkResult[];
  screens: ScreenResult[];
  before: BeforeResult;
  /**
   * The CDN build made again here (the leave-one-out builds start from it; its main chunk imports
   * nothing statically, or the run fails), and whether that chunk is the built file byte for byte.
   */
  cdnRebuilt: Sizes;
  cdnRebuiltIdentical: boolean;
  /** The modules in the first-render file, largest first (Rolldown's rendered length, before minification). */
  mainModules: { id: string; length: number }[];
  /** The npm entry bundled with its dependencies: the first-render part (entry chunk and its static imports) and every chunk. */
  esmDefine: { firstRender: Sizes; all: Sizes; chunks: number };
  litBaseline: Sizes;
  contributions: Contribution[];
  /** The first-render file minus everything accounted for above: the element's own logic and templates. */
  rest: Sizes;
}

const sha384 = async (bytes: Buffer): Promise<string> => {
  const { createHash } = await import('node:crypto');
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
};

/** The CDN file of {@link BEFORE_COMMIT}, built by its own scripts/build.js in a temporary directory outside the repository. */
const measureBefore = async (): Promise<BeforeResult> => {
  const dir = await mkdtemp(join(tmpdir(), 'merchant-checkout-before-'));
  try {
    // `git archive` only reads the repository: no worktree, nothing in the working tree changes.
    const archive = spawnSync('git', ['-C', root, 'archive', BEFORE_COMMIT], { maxBuffer: 512 * 1024 * 1024 });
    if (archive.status !== 0) throw new Error(`git archive: ${archive.stderr.toString().trim() || `exit ${archive.status}`}`);
    const untar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout, maxBuffer: 16 * 1024 * 1024 });
    if (untar.status !== 0) throw new Error(`tar: ${untar.stderr.toString().trim() || `exit ${untar.status}`}`);
    await symlink(`${root}node_modules`, join(dir, 'node_modules'), 'dir');
    const built = spawnSync(process.execPath, ['scripts/build.js'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    if (built.status !== 0)
      throw new Error(
        `its scripts/build.js: ${(built.stderr || built.stdout).trim().split('\n').slice(-3).join(' ') || `exit ${built.status}`}`,
      );
    return { commit: BEFORE_COMMIT, sizes: sizesOf(await readFile(join(dir, 'dist/cdn/merchant-checkout.js'))), built: true };
  } catch (error) {
    return { commit: BEFORE_COMMIT, sizes: BEFORE_RECORDED, built: false, failure: error instanceof Error ? error.message : String(error) };
  } finally {
    // A symlink is removed, not followed.
    await rm(dir, { recursive: true, force: true });
  }
};

export const runBundle = async (): Promise<BundleResult> => {
  const mainBytes = await readFile(CDN_FILE);
  const cdn = sizesOf(mainBytes);

  const integrityList = JSON.parse(await readFile(`${CDN_DIR}integrity.json`, 'utf8')) as Record<string, string>;
  const chunks: ChunkResult[] = [];
  for (const file of (await readdir(CDN_DIR)).filter((name) => /^merchant-checkout-[\w-]+\.js$/.test(name)).sort()) {
    const bytes = await readFile(`${CDN_DIR}${file}`);
    const name = file.slice('merchant-checkout-'.length, -'.js'.length);
    chunks.push({
      name,
      role: CHUNK_ROLES[name] ?? '(not described in bench/bundle.ts)',
      sizes: sizesOf(bytes),
      integrity: integrityList[file] === (await sha384(bytes)),
    });
  }
  const chunkSizes = (name: string): Sizes => {
    const found = chunks.find((chunk) => chunk.name === name);
    if (!found) throw new Error(`dist/cdn/merchant-checkout-${name}.js is missing: the split changed, update SCREENS in bench/bundle.ts`);
    return found.sizes;
  };
  const screens: ScreenResult[] = SCREENS.map(({ screen, chunks: names }) => {
    const [en, ru] = SCREEN_LANGUAGES.map((language) => sum([cdn, chunkSizes(language), ...names.map(chunkSizes)]));
    return { screen, chunks: names, en: en!, ru: ru! };
  });

  const rebuilt = await bundle({ file: CDN_ENTRY }, { cdn: true });
  const mainCode = entryCode(rebuilt);
  const full = sizesOf(mainCode);
  const mainChunk = rebuilt.find((chunk) => chunk.isEntry)!;
  const mainModules = Object.entries(mainChunk.modules)
    .filter(([, info]) => info.renderedLength > 0)
    .map(([id, info]) => ({
      id: id
        .replace(root, '')
        .replace(/^.*node_modules\//, '')
        .replace(/\0/g, ''),
      length: info.renderedLength,
    }))
    .sort((a, b) => b.length - a.length);

  const esm = await bundle({ file: `${root}dist/esm/define.js` });
  const esmDefine = {
    firstRender: sum(firstRender(esm).map((chunk) => sizesOf(chunk.code))),
    all: sum(esm.map((chunk) => sizesOf(chunk.code))),
    chunks: esm.length,
  };
  const litBaseline = sizesOf(entryCode(await bundle({ code: LIT_ELEMENT })));
  const litTask = sizesOf(entryCode(await bundle({ code: LIT_TASK_ELEMENT })));

  const contributions: Contribution[] = [
    { part: 'lit (LitElement, html, css) with an empty element', how: 'built alone', sizes: litBaseline },
    { part: '@lit/task', how: 'lit + Task element − lit baseline', sizes: minus(litTask, litBaseline) },
  ];
  for (const { part, stubs } of LEAVE_OUT) {
    const without = sizesOf(entryCode(await bundle({ file: CDN_ENTRY }, { cdn: true, stubs })));
    contributions.push({ part, how: 'first render − first render without it', sizes: minus(full, without) });
  }
  const rest = minus(full, sum(contributions.map((item) => item.sizes)));
  const alone: Contribution[] = [
    { part: 'answer validation', how: 'built alone', sizes: sizesOf(entryCode(await bundle({ code: await VALIDATION_ALONE() }))) },
  ];

  const before = await measureBefore();
  return {
    cdn,
    chunks,
    screens,
    before,
    cdnRebuilt: full,
    cdnRebuiltIdentical: Buffer.from(mainCode).equals(mainBytes),
    mainModules,
    esmDefine,
    litBaseline,
    contributions: [...contributions, ...alone],
    rest,
  };
};
