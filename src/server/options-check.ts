/**
 * Strict about our own options: every public factory refuses, when it is called, a key it does
 * not know, with a `TypeError` naming the key and the right spelling. TypeScript catches most
 * of these in a shop's code, but not in JavaScript, not through a spread or a `JSON.parse`, and
 * not a key placed one level off (`createCheckoutServer({ token })` built a kit whose receiver
 * answered every notification 404). Each factory declares the keys it takes once, as an
 * {@link OptionShape} typed `satisfies OptionShapeOf<TheOptions>`, so the type checker fails
 * when an option is added to the interface and not to the shape (or the other way round); where
 * a misplaced key belongs is found in the same shapes, never written twice.
 *
 * Runtime-neutral: no `node:` import.
 */

/**
 * What a key of an options object holds, for the check: `true`, a value taken as it is; an
 * {@link OptionShape}, an object whose keys are checked in turn (a function or `false` in its
 * place is left to the factory's own checks); `[shape]`, a list of such objects; or
 * {@link madeBy}, a value another factory makes (its keys are not checked here, but a key of
 * that factory given here is told where it belongs).
 */
export type OptionKind = true | OptionShape | readonly [OptionShape] | MadeBy;

/** The keys one options object takes, each with what it holds. */
export interface OptionShape {
  readonly [key: string]: OptionKind;
}

/**
 * The shape of the options type `T`: every key of `T` and no other. Write a factory's shape as
 * `{ … } as const satisfies OptionShapeOf<TheOptions>`, and the type checker holds the two to
 * each other.
 */
export type OptionShapeOf<T> = { readonly [Key in keyof Required<T>]-?: OptionKind };

/** A value made by another factory (`client: new MerchantClient({ … })`): see {@link madeBy}. */
export class MadeBy {
  /** How the value is made, as a shop writes it: `new MerchantClient`, `createMemoryStore`. */
  readonly factory: string;
  /** That factory's options. */
  readonly shape: OptionShape;
  constructor(factory: string, shape: OptionShape) {
    this.factory = factory;
    this.shape = shape;
  }
}

/** A key whose value `factory` makes (`client: madeBy('new MerchantClient', MERCHANT_CLIENT_OPTIONS)`). */
export const madeBy = (factory: string, shape: OptionShape): MadeBy => new MadeBy(factory, shape);

/** One step from an options object into one of its values. */
interface Step {
  key: string;
  kind: 'object' | 'list' | 'made';
  factory?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const describe = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value);

/**
 * The edit distance of two names (optimal string alignment: insertions, deletions,
 * substitutions and swaps of neighbours each count one), letter case aside.
 */
export const editDistance = (a: string, b: string): number => {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const rows = Array.from({ length: x.length + 1 }, (_, i) =>
    Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[x.length]![y.length]!;
};

/**
 * How far `candidate` is from the unknown `name` as a misspelling, or undefined when it is too
 * far to suggest: a few letters off (one per three letters of the name, at least one), or one
 * name beginning or ending the other (`timeout` for `timeoutMs`, `url` for `baseUrl`).
 */
const misspelling = (name: string, candidate: string): number | undefined => {
  const edits = editDistance(name, candidate);
  if (edits <= Math.max(1, Math.floor(name.length / 3))) return edits;
  const [short, long] = (name.length < candidate.length ? [name, candidate] : [candidate, name]).map((each) => each.toLowerCase()) as [
    string,
    string,
  ];
  if (short.length >= 3 && (long.startsWith(short) || long.endsWith(short))) return edits;
  return undefined;
};

/** The candidate nearest to `name` as a misspelling (see above), with its distance; ties go to the earlier one. */
const nearest = (name: string, candidates: Iterable<string>): { name: string; edits: number } | undefined => {
  let best: { name: string; edits: number } | undefined;
  for (const candidate of candidates) {
    const edits = misspelling(name, candidate);
    if (edits !== undefined && (best === undefined || edits < best.edits)) best = { name: candidate, edits };
  }
  return best;
};

/**
 * The candidate nearest to `name` as a misspelling (a few letters off, or one name holding the
 * other whole), or undefined when none is near. The gateway's settings use it for their
 * environment variables too.
 */
export const closestName = (name: string, candidates: Iterable<string>): string | undefined => nearest(name, candidates)?.name;

/** Every place in `root` (a path of steps) whose options hold a key, with that place's shape. */
const placesOf = (root: OptionShape): { steps: Step[]; shape: OptionShape }[] => {
  const places: { steps: Step[]; shape: OptionShape }[] = [];
  const visit = (shape: OptionShape, steps: Step[]) => {
    places.push({ steps, shape });
    for (const [key, kind] of Object.entries(shape)) {
      if (kind instanceof MadeBy) visit(kind.shape, [...steps, { key, kind: 'made', factory: kind.factory }]);
      else if (Array.isArray(kind)) visit(kind[0] as OptionShape, [...steps, { key, kind: 'list' }]);
      else if (kind !== true) visit(kind as OptionShape, [...steps, { key, kind: 'object' }]);
    }
  };
  visit(root, []);
  return places;
};

const sameSteps = (a: readonly Step[], b: readonly Step[]) => a.length === b.length && a.every((step, index) => step.key === b[index]!.key);

/** How a shop writes `key` at a place: `notifications: { token }`, `merchants: [{ apiKey }]`, `client: new MerchantClient({ apiKey })`. */
const written = (steps: readonly Step[], key: string): string => {
  let inner = `{ ${key} }`;
  for (let index = steps.length - 1; index >= 0; index--) {
    const step = steps[index]!;
    inner =
      step.kind === 'made'
        ? `${step.key}: ${step.factory}(${inner})`
        : step.kind === 'list'
          ? `${step.key}: [${inner}]`
          : `${step.key}: ${inner}`;
    if (index > 0) inner = `{ ${inner} }`;
  }
  return inner;
};

/** Where a place is, in a sentence: "at the top level (`{ onChange }`)" or "in `notifications: { token }`". */
const placeText = (steps: readonly Step[], key: string): string =>
  steps.length === 0 ? `at the top level (\`{ ${key} }\`)` : `in \`${written(steps, key)}\``;

/** The name of a key where it was given: `tokn`, `notifications.tokn`, `merchants[0].apikey`. */
const pathText = (path: readonly string[]): string =>
  path.reduce((text, part) => (part.startsWith('[') ? `${text}${part}` : text ? `${text}.${part}` : part), '');

/** What is wrong with one unknown key, in a sentence naming it and the right spelling. */
const unknownKey = (factory: string, root: OptionShape, steps: readonly Step[], path: readonly string[], key: string): string => {
  const here = placesOf(root);
  const given = pathText([...path, key]);
  const levelText = steps.length === 0 ? 'at the top level' : `in \`${pathText(path)}\``;
  const elsewhere = here.filter((place) => !sameSteps(place.steps, steps) && Object.hasOwn(place.shape, key));
  if (elsewhere.length > 0) {
    const places = elsewhere.map((place) => placeText(place.steps, key)).join(' or ');
    return `${factory}: \`${given}\` belongs ${places}, not ${levelText}`;
  }
  const current = here.find((place) => sameSteps(place.steps, steps))!;
  const sameLevel = nearest(key, Object.keys(current.shape));
  if (sameLevel !== undefined)
    return `\`${given}\` is not an option of ${factory}; did you mean \`${pathText([...path, sameLevel.name])}\`?`;
  let best: { steps: readonly Step[]; name: string; edits: number } | undefined;
  for (const place of here) {
    const near = nearest(key, Object.keys(place.shape));
    if (near !== undefined && (best === undefined || near.edits < best.edits)) best = { steps: place.steps, ...near };
  }
  if (best !== undefined) {
    const suggestion = best.steps.length === 0 ? `\`${best.name}\` at the top level` : `\`${written(best.steps, best.name)}\``;
    return `\`${given}\` is not an option of ${factory}; did you mean ${suggestion}?`;
  }
  const known = Object.keys(current.shape).join(', ');
  return steps.length === 0
    ? `\`${given}\` is not an option of ${factory}; its options are ${known}`
    : `\`${given}\` is not an option of ${factory}; \`${pathText(path)}\` takes ${known}`;
};

/**
 * Refuses an options object with a key that `shape` does not declare, at any depth it
 * declares: a `TypeError` naming each such key (with its path, `notifications.tokn`) and where
 * it belongs or how it is spelt. `factory` names the factory as a shop calls it
 * (`createCheckoutServer`, `MerchantClient`). A key given as `undefined` is checked like any
 * other; a known key's `undefined` is fine. A non-object `options` is a `TypeError` too.
 * Every public factory calls it first (test/server/options-check.test.ts holds them to it).
 */
export const checkOptions = (factory: string, options: unknown, shape: OptionShape): void => {
  if (!isObject(options)) throw new TypeError(`${factory}: its options must be an object, got ${describe(options)}`);
  const problems: string[] = [];
  const check = (value: Record<string, unknown>, current: OptionShape, steps: Step[], path: string[]) => {
    for (const key of Object.keys(value)) {
      if (!Object.hasOwn(current, key)) {
        problems.push(unknownKey(factory, shape, steps, path, key));
        continue;
      }
      const kind = current[key]!;
      const inner = value[key];
      if (kind === true || kind instanceof MadeBy) continue;
      if (Array.isArray(kind)) {
        if (Array.isArray(inner)) {
          inner.forEach((item: unknown, index) => {
            if (isObject(item)) check(item, kind[0] as OptionShape, [...steps, { key, kind: 'list' }], [...path, key, `[${index}]`]);
          });
        }
      } else if (isObject(inner)) {
        check(inner, kind as OptionShape, [...steps, { key, kind: 'object' }], [...path, key]);
      }
    }
  };
  check(options, shape, [], []);
  if (problems.length > 0) throw new TypeError(problems.join('\n'));
};
