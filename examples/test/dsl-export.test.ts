// The designer's code export (@streamwright/codegen's exportDsl) against the real DSL: the
// exported program for designs with every window, join and suppress kind type-checks (strict,
// with the engine's DSL types) and, run, builds a topology whose describe() is the design's.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import {
  describeTopology,
  planTopology,
  validateTopology,
  type Topology,
} from '@streamwright/topology-model';
import type { BuiltTopology } from '@streamwright/engine';
import { exportDsl } from '@streamwright/codegen';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  functionsModule,
  joinDesigns,
  partitionersModule,
  windowedDesigns,
} from './dsl-export-fixtures.js';

const designs = [...windowedDesigns, ...joinDesigns];

const nodesOf = (topology: Topology) =>
  [...topology.nodes]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((n) => ({
      kind: n.kind,
      name: n.name,
      config: JSON.parse(
        JSON.stringify(n.config, (_k, v: unknown) =>
          v !== null && typeof v === 'object' && 'function' in v ? { function: '…' } : v,
        ),
      ) as unknown,
    }));
const outDir = fileURLToPath(new URL('../.dsl-export-out/', import.meta.url));
const programOf = (id: string) => `${outDir}${id}/program.ts`;

beforeAll(() => {
  rmSync(outDir, { recursive: true, force: true });
  for (const design of designs) {
    const { code, unsupported } = exportDsl(design);
    expect(unsupported).toEqual([]);
    mkdirSync(`${outDir}${design.application.id}`, { recursive: true });
    writeFileSync(programOf(design.application.id), code);
    writeFileSync(`${outDir}${design.application.id}/functions.ts`, functionsModule);
    writeFileSync(`${outDir}${design.application.id}/partitioners.ts`, partitionersModule);
  }
});
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('exported DSL code for windows, joins and suppress', () => {
  it('type-checks against the engine DSL (strict)', () => {
    const config = ts.getParsedCommandLineOfConfigFile(
      fileURLToPath(new URL('../tsconfig.json', import.meta.url)),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    );
    if (!config) throw new Error('examples/tsconfig.json did not parse');
    const program = ts.createProgram(
      designs.map((d) => programOf(d.application.id)),
      { ...config.options, noEmit: true },
    );
    const errors = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file
        ? `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
        : '';
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(errors).toEqual([]);
  }, 120_000);

  it.each(designs.map((d) => [d.application.id, d] as const))(
    '%s: running the program builds the design (same describe(), node configs and stores)',
    async (id, design) => {
      const module = (await import(pathToFileURL(programOf(id)).href)) as {
        built: BuiltTopology;
      };
      const original = validateTopology(design);
      if (!original.ok) throw new Error(JSON.stringify(original.errors));
      expect(module.built.describe()).toBe(describeTopology(planTopology(original.topology)));
      // describe() leaves out what only the configs say (window sizes, grace, join types, buffer
      // bounds, CEL): the nodes, in creation order, must agree too (functions by role only, as
      // the DSL registers lambdas under generated names)
      expect(nodesOf(module.built.topology)).toEqual(nodesOf(original.topology));
      expect(module.built.topology.stores).toEqual(original.topology.stores);
    },
  );
});
