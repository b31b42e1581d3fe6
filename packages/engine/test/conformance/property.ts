// The differential property over fast-check's raw cases, and the shrinking of a failing case.
// A failing case is reported as a replayable document + input (differential.ts#replayable).
import type { OracleSession } from '@streamwright/ks-oracle';
import fc from 'fast-check';
import { difference, runOurs, scenarioOf, theirs } from './differential.js';
import { buildCase, rawCaseArbitrary, type RawCase } from './random-case.js';

export class Divergence extends Error {}

/** A divergence's kind: its first line without numbers (topic and store names vary). */
export function kindOf(diff: string): string {
  return (diff.split('\n')[0] as string).replace(/[0-9]+/g, 'N');
}

/**
 * Throws a Divergence when Kafka Streams and we disagree on the case; with `sameKind`, only for
 * a divergence of that kind (so shrinking one divergence does not wander off to another).
 */
export async function checkRaw(
  oracle: OracleSession,
  raw: RawCase,
  sameKind?: string,
): Promise<void> {
  const c = buildCase(raw);
  const [result] = await oracle.run([scenarioOf(c)]);
  const diff = difference(runOurs(c), theirs(result!));
  if (diff !== null && (sameKind === undefined || kindOf(diff) === sameKind)) {
    throw new Divergence(diff);
  }
}

export function differentialProperty(oracle: OracleSession, sameKind?: string) {
  return fc.asyncProperty(rawCaseArbitrary, (raw) => checkRaw(oracle, raw, sameKind));
}

export interface Counterexample {
  raw: RawCase;
  difference: string;
  shrinks: number;
}

/**
 * Shrinks a failing raw case (fast-check's shrinker, the case given as an example), keeping the
 * divergence's kind.
 */
export async function shrink(
  oracle: OracleSession,
  raw: RawCase,
  kind: string,
): Promise<Counterexample> {
  const details = await fc.check(differentialProperty(oracle, kind), {
    examples: [[raw]],
    numRuns: 1,
    // Shrinking a large case can take thousands of steps: keep what it has after a minute.
    interruptAfterTimeLimit: 60_000,
  });
  if (!details.failed || details.counterexample === null) {
    return { raw, difference: 'did not fail again', shrinks: 0 };
  }
  return {
    raw: details.counterexample[0] ?? raw,
    difference: String(
      (details.errorInstance as Error | undefined)?.message ?? details.errorInstance,
    ),
    shrinks: details.numShrinks,
  };
}
