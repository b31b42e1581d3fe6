// `streamwright export <program>`: the built CLI runs a DSL program and writes its topology JSON
// (code → canvas). The program is examples/code-to-canvas/page-views.ts, compiled to JavaScript
// as a user would (the CLI imports JavaScript only). The round trip closes the loop with the
// designer's code export: the DSL export (@streamwright/codegen) of that JSON, run through the
// CLI again, gives the same document byte for byte.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { exportDsl } from '@streamwright/codegen';
import { importTopology } from '@streamwright/topology-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, ensureBuilt, runtimeDir } from './cli-harness.js';

const example = fileURLToPath(
  new URL('../../../examples/code-to-canvas/page-views.ts', import.meta.url),
);

/** TypeScript → an ES module, as `tsc` would emit it for Node. */
const compile = (source: string) =>
  ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;

// Programs live under apps/runtime so that their `@streamwright/engine` import resolves to the
// workspace's engine (the CLI's own), as in a project that depends on it.
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(runtimeDir, '.export-test-'));
  await writeFile(join(dir, 'page-views.mjs'), compile(await readFile(example, 'utf8')));
  await ensureBuilt();
}, 300_000);
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const program = (name: string, source: string) => writeFile(join(dir, name), source);

describe('streamwright export <program>', () => {
  it('writes the topology of a default export (builder) => void; its DSL export round-trips', async () => {
    const first = await cli(['export', join(dir, 'page-views.mjs')]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const imported = importTopology(first.stdout);
    if (!imported.ok) throw new Error(JSON.stringify(imported.errors));
    // the application.id is the file's base name; the nodes are the program's, in its order
    expect(imported.topology.application.id).toBe('page-views');
    expect(imported.topology.nodes.map((n) => n.kind)).toEqual([
      'table',
      'source',
      'filter',
      'selectKey',
      'streamTableJoin',
      'sink',
      'groupByKey',
      'windowedBy',
      'windowedCount',
      'toStream',
      'sink',
    ]);

    // the designer's code export of that JSON, compiled and exported again: the same document
    const { code, unsupported } = exportDsl(imported.topology);
    expect(unsupported).toEqual([]);
    await program('round-trip.mjs', compile(code));
    const second = await cli(['export', join(dir, 'round-trip.mjs')]);
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
  });

  it('writes to -o <file>, takes --export <name> and sets --application-id', async () => {
    await program(
      'named.mjs',
      `import { StreamsBuilder } from '@streamwright/engine';
export function ordersTopology(builder) {
  builder.stream('orders').filter('value.total > 100').to('big-orders');
}
const b = new StreamsBuilder();
b.stream('a').to('b');
export const other = b.build({ applicationId: 'other-app' });`,
    );
    const out = join(dir, 'orders.json');
    const run = await cli([
      'export',
      join(dir, 'named.mjs'),
      '--export',
      'ordersTopology',
      '--application-id',
      'orders-app',
      '-o',
      out,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    const written = importTopology(await readFile(out, 'utf8'));
    if (!written.ok) throw new Error(JSON.stringify(written.errors));
    expect(written.topology.application.id).toBe('orders-app');
    expect(
      written.topology.nodes.map((n) => [
        n.kind,
        (n.config as { expression?: unknown }).expression,
      ]),
    ).toEqual([
      ['source', undefined],
      ['filter', 'value.total > 100'],
      ['sink', undefined],
    ]);

    // a build() result keeps its own id unless --application-id replaces it
    const other = await cli(['export', join(dir, 'named.mjs'), '-e', 'other']);
    expect(other.code).toBe(0);
    expect(JSON.parse(other.stdout)).toMatchObject({ application: { id: 'other-app' } });
    const renamed = await cli([
      'export',
      join(dir, 'named.mjs'),
      '-e',
      'other',
      '--application-id',
      'renamed',
    ]);
    expect(JSON.parse(renamed.stdout)).toMatchObject({ application: { id: 'renamed' } });
  });

  it('lists the TypeScript functions the document refers to by name on stderr', async () => {
    await program(
      'functions.mjs',
      `export default (builder) => {
  builder.stream('in').filter(function isBig(_key, value) { return value > 10; }).to('out');
};`,
    );
    const run = await cli(['export', join(dir, 'functions.mjs')]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      nodes: [
        { kind: 'source' },
        { kind: 'filter', config: { expression: { function: 'isBig' } } },
        { kind: 'sink' },
      ],
    });
    expect(run.stderr).toContain('refers to code by name (functions: isBig)');
  });

  it('says what is wrong with a program it cannot export', async () => {
    // TypeScript: the same hint as --processors gives
    const typescript = await cli(['export', example]);
    expect(typescript.code).toBe(1);
    expect(typescript.stdout).toBe('');
    expect(typescript.stderr).toContain(`cannot load the program from ${example}`);
    expect(typescript.stderr).toContain(
      'compile it to JavaScript (tsc) or write the module as .mjs',
    );

    await program('nothing.mjs', `export const answer = 42;`);
    const nothing = await cli(['export', join(dir, 'nothing.mjs')]);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toContain('has neither a default export nor a `built` export');
    const missing = await cli(['export', join(dir, 'nothing.mjs'), '-e', 'topology']);
    expect(missing.stderr).toContain('has no export named `topology` (it exports: answer)');
    const number = await cli(['export', join(dir, 'nothing.mjs'), '-e', 'answer']);
    expect(number.stderr).toContain(
      'export `answer` is a number: expected a function (builder) => void or the result of builder.build()',
    );

    // build()'s own error (an invalid CEL expression), named as the program's
    await program(
      'invalid.mjs',
      `export default (builder) => { builder.stream('in').filter('value >').to('out'); };`,
    );
    const invalid = await cli(['export', join(dir, 'invalid.mjs')]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('the default export failed:');
    expect(invalid.stdout).toBe('');

    const badId = await cli(['export', join(dir, 'invalid.mjs'), '--application-id', 'a b']);
    expect(badId.code).toBe(1);
    expect(badId.stderr).toContain('an application.id is 1-200 letters, digits');
  });
});
