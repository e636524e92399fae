/**
 * Bundle sizes: the CDN file as built, the npm entry bundled with its dependencies the way a
 * merchant's bundler would, a baseline of Lit alone, and what each part adds (builds with that
 * part left out, and small builds of a dependency on its own). Deterministic: no timing.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'vite';
import { sizesOf, type Sizes } from './lib.js';

const root = fileURLToPath(new URL('..', import.meta.url));

export const CDN_FILE = `${root}dist/cdn/merchant-checkout.js`;

/** Goal and limit of the issue; 1 KB = 1,000 bytes (the stricter reading). */
export const BROTLI_GOAL = 24_000;
export const GZIP_LIMIT = 30_000;

/** Code of a module that replaces a part of the bundle, keyed by the end of its path. */
type Stubs = Record<string, string>;

const VIRTUAL = '\0bench-virtual:';

/**
 * One ES module, minified whole, as `scripts/build.js` makes the CDN file (same resolve
 * conditions, define, target and output minification), from a file or from source text.
 */
export const bundle = async (entry: { file: string } | { code: string }, stubs: Stubs = {}): Promise<string> => {
  const entryId = 'code' in entry ? 'bench-entry' : entry.file;
  const plugin: Plugin = {
    name: 'bench-stubs',
    enforce: 'pre',
    async resolveId(id, importer) {
      if ('code' in entry && id.endsWith(entryId)) return `${VIRTUAL}entry.js`;
      // As scripts/build.js does for the CDN file: qrcode's text splitter replaced by ours.
      if ((id === './segments' || id === './regex') && importer?.replace(/\\/g, '/').includes('/qrcode/lib/core/')) {
        return `${root}src/element/qr-segments.ts`;
      }
      if (id.startsWith(VIRTUAL) || Object.keys(stubs).length === 0) return undefined;
      const resolved = (await this.resolve(id, importer, { skipSelf: true }))?.id ?? id;
      const stub = Object.keys(stubs).find((end) => resolved.endsWith(`/${end}`));
      return stub === undefined ? undefined : `${VIRTUAL}${stub}`;
    },
    load(id) {
      if (!id.startsWith(VIRTUAL)) return undefined;
      const key = id.slice(VIRTUAL.length);
      return key === 'entry.js' && 'code' in entry ? entry.code : stubs[key];
    },
  };
  const output = await build({
    configFile: false,
    root,
    logLevel: 'silent',
    publicDir: false,
    define: { 'process.env.NODE_ENV': '"production"' },
    resolve: { conditions: ['browser', 'production'] },
    plugins: [plugin],
    build: {
      write: false,
      target: 'es2022',
      minify: true,
      lib: { entry: { bundle: entryId }, formats: ['es'] },
      rolldownOptions: { output: { minify: true, comments: { annotation: false } } },
    },
  });
  const results = Array.isArray(output) ? output : [output];
  const chunks = results.flatMap((result) => ('output' in result ? result.output : [])).filter((item) => item.type === 'chunk');
  if (chunks.length !== 1) throw new Error(`expected one chunk, got ${chunks.length}`);
  return chunks[0]!.code;
};

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

const QRCODE_ALONE = `
import QRCodeCore from 'qrcode/lib/core/qrcode.js';
export const create = (text) => QRCodeCore.create(text, { errorCorrectionLevel: 'M' }).modules;
`;

const VALIDATION_ALONE = `
import { invoiceJsonSchema, paymentVariantsJsonSchema, canceledInvoiceJsonSchema, checkoutErrorJsonSchema } from '${root}src/schemas/browser.generated.ts';
import { validateJson } from '${root}src/schemas/json-schema.ts';
export const check = (value) => [invoiceJsonSchema, paymentVariantsJsonSchema, canceledInvoiceJsonSchema, checkoutErrorJsonSchema].map((schema) => validateJson(schema, value));
`;

/** Parts left out of the CDN build, each replaced by the least code that keeps it building. */
const LEAVE_OUT: { part: string; stubs: Stubs }[] = [
  { part: 'qrcode core (QR matrix)', stubs: { 'qrcode/lib/core/qrcode.js': 'export default { create() { throw new Error("left out"); } };' } },
  {
    part: 'answer validation (generated JSON Schemas + validator)',
    stubs: {
      'schemas/browser.generated.ts': 'export const invoiceJsonSchema = {}, canceledInvoiceJsonSchema = {}, paymentVariantsJsonSchema = {}, checkoutErrorJsonSchema = {};',
      'schemas/json-schema.ts': 'export const validateJson = (schema, value) => ({ success: true, data: value });',
    },
  },
  { part: 'Russian strings', stubs: { 'i18n/ru.ts': 'export const ru = {};' } },
  { part: 'styles (CSS)', stubs: { 'element/merchant-checkout.styles.ts': 'export const styles = [];' } },
];

export interface Contribution {
  part: string;
  how: string;
  sizes: Sizes;
}

export interface BundleResult {
  cdn: Sizes;
  /** The CDN build made again here (to check that the leave-one-out builds start from the same file). */
  cdnRebuilt: Sizes;
  esmDefine: Sizes;
  litBaseline: Sizes;
  contributions: Contribution[];
  /** The CDN minus everything accounted for above: the element's own logic and templates. */
  rest: Sizes;
}

const minus = (a: Sizes, b: Sizes): Sizes => ({ raw: a.raw - b.raw, gzip: a.gzip - b.gzip, brotli: a.brotli - b.brotli });

export const runBundle = async (): Promise<BundleResult> => {
  const cdn = sizesOf(await readFile(CDN_FILE));
  const full = sizesOf(await bundle({ file: `${root}src/element/define.ts` }));
  const esmDefine = sizesOf(await bundle({ file: `${root}dist/esm/define.js` }));
  const litBaseline = sizesOf(await bundle({ code: LIT_ELEMENT }));
  const litTask = sizesOf(await bundle({ code: LIT_TASK_ELEMENT }));

  const contributions: Contribution[] = [
    { part: 'lit (LitElement, html, css) with an empty element', how: 'built alone', sizes: litBaseline },
    { part: '@lit/task', how: 'lit + Task element − lit baseline', sizes: minus(litTask, litBaseline) },
  ];
  for (const { part, stubs } of LEAVE_OUT) {
    contributions.push({ part, how: 'CDN − CDN without it', sizes: minus(full, sizesOf(await bundle({ file: `${root}src/element/define.ts` }, stubs))) });
  }
  const accounted = contributions.reduce<Sizes>((sum, item) => ({
    raw: sum.raw + item.sizes.raw,
    gzip: sum.gzip + item.sizes.gzip,
    brotli: sum.brotli + item.sizes.brotli,
  }), { raw: 0, gzip: 0, brotli: 0 });
  const alone: Contribution[] = [
    { part: 'qrcode core', how: 'built alone', sizes: sizesOf(await bundle({ code: QRCODE_ALONE })) },
    { part: 'answer validation', how: 'built alone', sizes: sizesOf(await bundle({ code: VALIDATION_ALONE })) },
  ];
  return { cdn, cdnRebuilt: full, esmDefine, litBaseline, contributions: [...contributions, ...alone], rest: minus(full, accounted) };
};
