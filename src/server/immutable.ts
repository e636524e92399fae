/**
 * Values the proxy shares between callers and reuses between reads (an invoice read once and
 * answered to every payer polling it, its projection, that projection's JSON text): frozen, so
 * that no caller or hook can change what the next one is handed.
 */

/** Freezes `value` and everything reachable from it through own properties; returns it. */
export const deepFreeze = <T>(value: T): T => {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
};

const texts = new WeakMap<object, string>();

/** `JSON.stringify(value)`, made once per frozen object (an answer served to many payers). */
export const jsonText = (value: unknown): string => {
  if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return JSON.stringify(value);
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
};
