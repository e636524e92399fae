/**
 * `npm run bench -- --only <names> --sections`: the sections of the benchmarks run replace
 * theirs in BENCHMARKS.md (each between `<!-- bench:<name> -->` markers), with their rows of the
 * goals table and the count under it, so that one benchmark can be measured again without the
 * others. Each replaced section says when it ran; the rest of the file keeps its own date.
 */
import type { BenchName } from './report.js';

/** The heading of a marked section, when BENCHMARKS.md lacks it (it goes before the changes' table). */
const HEADINGS: Partial<Record<BenchName, string>> = {
  books: "## 8. The merchant's books under a hostile notification channel",
  gateway: '## 9. The gateway for shops on any stack',
  tracing: '## 10. What tracing costs',
  instructions: '## 11. What tracing costs, counted in instructions',
  phone: '## 12. The checkout on a mid-range phone',
  chaos: '## 13. Nothing lost when the gateway dies',
  journal: '## 14. What the journal costs',
};

const block = (name: string): RegExp => new RegExp(`<!-- bench:${name} -->\\n[\\s\\S]*?<!-- /bench:${name} -->`);

/** A goal's row: its figure (first cell) and the rest. */
const rows = (text: string): Map<string, string> =>
  new Map(
    text
      .split('\n')
      .filter((line) => line.startsWith('| ') && /\| \*\*(not )?met\*\* \|$|\| not measured \|$/.test(line))
      .map((line) => [line.slice(0, line.indexOf(' | ') + 3), line]),
  );

/**
 * `current` (BENCHMARKS.md) with the sections of `names` and their goals from `fresh` (the
 * report of this run), stamped with `date`.
 */
export const replaceSections = (current: string, fresh: string, names: readonly BenchName[], date: Date): string => {
  let text = current;
  for (const name of names) {
    const section = block(name).exec(fresh)?.[0];
    if (!section) continue;
    const stamped = section.replace(
      `<!-- /bench:${name} -->`,
      `_Measured again on ${date.toISOString()} alone (\`npm run bench -- --only ${name} --sections\`)._\n\n<!-- /bench:${name} -->`,
    );
    text = block(name).test(text)
      ? text.replace(block(name), () => stamped)
      : text.replace(
          '## Changes made for these figures',
          () => `${HEADINGS[name] ?? `## ${name}`}\n\n${stamped}\n\n## Changes made for these figures`,
        );
  }
  // The table of changes is the code's (bench/report.ts), whatever ran.
  const changes = block('changes').exec(fresh)?.[0];
  if (changes)
    text = block('changes').test(text)
      ? text.replace(block('changes'), () => changes)
      : text.replace(/(## Changes made for these figures\n\n)[\s\S]*$/, (_, heading: string) => `${heading}${changes}\n`);
  // The goals this run measured replace their rows in the goals table (a section may repeat a
  // row in its own table: only the one before section 1 is the goals table).
  const cut = text.indexOf('\n## 1.');
  let goals = text.slice(0, cut);
  const measured = [...rows(fresh.slice(0, fresh.indexOf('\n## 1.')))].filter(([, line]) => !line.endsWith('| not measured |'));
  for (const [key, line] of measured) {
    const old = goals.split('\n').find((candidate) => candidate.startsWith(key));
    // A goal the file does not have yet goes at the end of the table.
    goals = old
      ? goals.replace(old, () => line)
      : goals.replace(/(\n\| [^\n]*\|)\n\n\*\*\d+ of/, (_, last: string) => `${last}\n${line}\n\n**0 of`);
  }
  const all = [...rows(goals).values()];
  const met = all.filter((line) => line.endsWith('| **met** |')).length;
  return goals.replace(/\*\*\d+ of \d+ goals met\.\*\*/, `**${met} of ${all.length} goals met.**`) + text.slice(cut);
};
