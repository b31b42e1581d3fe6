import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  exampleTopology,
  exportTopology,
  topologyJsonSchema,
  topologyJsonSchemaText,
  validateTopology,
} from '../src/index.js';
import { dslScenarios } from './support/dsl-scenarios.js';

const committed = readFileSync(
  new URL('../../../docs/topology.schema.json', import.meta.url),
  'utf8',
);

describe('docs/topology.schema.json', () => {
  it('is up to date with the zod schema (run `pnpm --filter @streamwright/topology-model gen:schema`)', () => {
    expect(committed).toBe(topologyJsonSchemaText());
  });

  it('accepts the example and canonical exports, and rejects what validation rejects per node', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const check = ajv.compile(topologyJsonSchema());
    expect(check(exampleTopology())).toBe(true);
    const result = validateTopology(exampleTopology());
    if (!result.ok) throw new Error('example must validate');
    expect(check(JSON.parse(exportTopology(result.topology)))).toBe(true);

    const badConfig = structuredClone(exampleTopology());
    (badConfig.nodes?.[1] as { config: unknown }).config = { expresion: 'true' };
    expect(check(badConfig)).toBe(false);
    // Every kind, as the hand-picked DSL programs use them, and their canonical exports.
    for (const { name, topology } of dslScenarios) {
      const result = validateTopology(topology);
      if (!result.ok) throw new Error(`${name} must validate`);
      expect([name, check(topology), check(JSON.parse(exportTopology(result.topology)))]).toEqual([
        name,
        true,
        true,
      ]);
    }
    const badLogic = structuredClone(exampleTopology());
    (badLogic.nodes?.[1] as { config: unknown }).config = { expression: { fn: 'x' } };
    expect(check(badLogic)).toBe(false);
    const badKind = structuredClone(exampleTopology());
    (badKind.nodes?.[1] as { kind: string }).kind = 'flatMapEverything';
    expect(check(badKind)).toBe(false);
  });
});
