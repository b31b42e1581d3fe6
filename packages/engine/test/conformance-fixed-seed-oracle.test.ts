// A fixed-seed random differential run against Kafka Streams 4.1 (docs/CONFORMANCE.md): the same
// generated topologies × inputs every time, compared as `scripts/conformance.mjs` compares them.
// Cases still known to diverge are listed, with their kind and reason, in
// test/conformance/known-divergences.json; the test fails on any other divergent case, on a
// listed case diverging in another way, and on a listed case that no longer diverges (so the
// list only shrinks, by editing it).
import { readFileSync } from 'node:fs';
import { openOracle, type OracleSession } from '@streamwright/ks-oracle';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { difference, runOurs, scenarioOf, theirs } from './conformance/differential.js';
import { kindOf } from './conformance/property.js';
import { buildCase, rawCaseArbitrary } from './conformance/random-case.js';

interface Known {
  seed: number;
  runs: number;
  /** case index → the kind of its divergence (first line, numbers as N) and why it remains. */
  cases: Record<string, { kind: string; reason: string }>;
}

const known = JSON.parse(
  readFileSync(new URL('./conformance/known-divergences.json', import.meta.url), 'utf8'),
) as Known;

describe(`random differential run, seed ${known.seed}, ${known.runs} cases (issue 25)`, () => {
  let oracle: OracleSession;
  const found = new Map<number, string>();
  let compared = 0;
  beforeAll(async () => {
    oracle = openOracle();
    const cases = fc.sample(rawCaseArbitrary, { seed: known.seed, numRuns: known.runs });
    for (let from = 0; from < cases.length; from += 100) {
      const batch = cases.slice(from, from + 100).map(buildCase);
      const results = await oracle.run(batch.map((c, i) => scenarioOf(c, `case-${from + i}`)));
      batch.forEach((c, i) => {
        const kafka = theirs(results[i]!);
        for (const list of Object.values(kafka.outputs ?? {})) compared += list.length;
        const diff = difference(runOurs(c), kafka);
        if (diff !== null) found.set(from + i, kindOf(diff));
      });
    }
  }, 600_000);
  afterAll(() => oracle?.close());

  it('diverges only where the known-divergences list says, and as it says', () => {
    expect(compared).toBeGreaterThan(1000);
    const unexpected = [...found]
      .filter(([i, kind]) => known.cases[String(i)]?.kind !== kind)
      .map(([i, kind]) => `case ${i}: ${kind} (replay: node scripts/conformance.mjs)`);
    const fixed = Object.keys(known.cases)
      .filter((i) => !found.has(Number(i)))
      .map((i) => `case ${i} no longer diverges: remove it from known-divergences.json`);
    expect([...unexpected, ...fixed]).toEqual([]);
  });
});
