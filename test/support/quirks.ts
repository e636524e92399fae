/**
 * `MOCK_QUIRKS=<seed>` runs a suite against the mock with its `quirks` on: answers then vary,
 * deterministically by seed, over every shape the service's reference permits (offset forms,
 * one object or an array, null or missing optional fields, extra fields). `npm test` runs the
 * proxy and end-to-end suites once more this way.
 */
export const mockQuirks = (): { quirks?: number } => {
  const value = process.env.MOCK_QUIRKS;
  if (value === undefined || value === '') return {};
  const seed = Number(value);
  if (!Number.isInteger(seed) || seed < 0) throw new Error(`MOCK_QUIRKS must be a non-negative integer seed, got ${JSON.stringify(value)}`);
  return { quirks: seed };
};
