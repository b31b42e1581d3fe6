// `streamwright drive`: the built CLI runs topology files over JSON-line records as Kafka's
// TopologyTestDriver does. The expected records come from Apache Kafka Streams 4.1 itself: the
// same documents and inputs run on its TopologyTestDriver through tools/ks-oracle.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runOracle, type OracleRecord, type OracleScenario } from '@streamwright/ks-oracle';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, ensureBuilt, jsonLines } from './cli-harness.js';

beforeAll(ensureBuilt, 300_000);

const example = (name: string) =>
  fileURLToPath(new URL(`../../../examples/kstream-vs-ktable/${name}`, import.meta.url));

// The seed's five scores (Jack 1, Lily 2, Mike 4, Jack 3, Lily 5), one second apart.
const scores = [
  ['Jack', 1],
  ['Lily', 2],
  ['Mike', 4],
  ['Jack', 3],
  ['Lily', 5],
].map(([key, value], i) => ({ topic: 'scores', key, value, timestamp: (i + 1) * 1000 }));
const lines = (records: readonly object[]) => records.map((r) => JSON.stringify(r)).join('\n');

/** A hopping count of clicks per user, written with TimeWindowedSerde. */
const windowed = {
  schemaVersion: 1,
  application: { id: 'drive-windows', config: {} },
  topics: [
    { name: 'clicks', partitions: 1 },
    { name: 'per-window', partitions: 1 },
  ],
  nodes: [
    { id: 'clicks', kind: 'source', config: { topic: 'clicks', valueSerde: 'string' } },
    { id: 'g', kind: 'groupByKey', config: {} },
    {
      id: 'w',
      kind: 'windowedBy',
      config: { window: { type: 'hopping', sizeMs: 5000, advanceMs: 2500, graceMs: 1000 } },
    },
    { id: 'count', kind: 'windowedCount', config: {} },
    { id: 'changes', kind: 'toStream', config: {} },
    {
      id: 'out',
      kind: 'sink',
      config: {
        topic: 'per-window',
        keySerde: 'string',
        valueSerde: 'long',
        windowedKey: 'time',
        windowSizeMs: 5000,
      },
    },
  ],
  edges: [
    { from: 'clicks', to: 'g' },
    { from: 'g', to: 'w' },
    { from: 'w', to: 'count' },
    { from: 'count', to: 'changes' },
    { from: 'changes', to: 'out' },
  ],
};
const clicks = (
  [
    ['ann', 1000],
    ['bob', 2000],
    ['ann', 4000],
    ['ann', 7600],
    ['bob', 2600], // out of order, within grace
  ] as [string, number][]
).map(([key, timestamp]) => ({ topic: 'clicks', key, value: 'click', timestamp }));

async function kafkaStreams(scenario: OracleScenario): Promise<OracleRecord[]> {
  const [result] = await runOracle([scenario]);
  expect(result?.error).toBeUndefined();
  return result?.outputs?.[scenario.outputs![0]!] ?? [];
}

describe('streamwright drive', { timeout: 180_000 }, () => {
  it("prints what the seed's table sum writes, as Kafka Streams writes it", async () => {
    const file = example('table-sum.topology.json');
    const topology = JSON.parse(await readFile(file, 'utf8')) as unknown;
    const expected = await kafkaStreams({
      name: 'table sum',
      topology,
      inputs: scores,
      outputs: ['table-sums'],
    });
    const run = await cli(['drive', file, '--records', '-'], { input: lines(scores) });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(jsonLines(run.stdout)).toEqual(expected.map((r) => ({ topic: 'table-sums', ...r })));
    // The seed's ending: Mike 4, Jack 3, Lily 5.
    expect(
      jsonLines(run.stdout)
        .slice(-3)
        .map((r) => [r.key, r.value]),
    ).toEqual([
      ['Mike', 4],
      ['Jack', 3],
      ['Lily', 5],
    ]);

    // --include-internal adds the repartition and changelog topics, in the order written.
    const all = jsonLines(
      (await cli(['drive', file, '-r', '-', '--include-internal'], { input: lines(scores) }))
        .stdout,
    );
    const topics = new Set(all.map((r) => r.topic));
    expect(topics).toContain('table-sum-table-sums-repartition');
    expect(topics).toContain('table-sum-table-sums-changelog');
    expect(all.filter((r) => r.topic === 'table-sums')).toEqual(jsonLines(run.stdout));
  });

  it('prints windowed keys as {key, start, end}, as Kafka Streams counts the windows', async () => {
    const expected = await kafkaStreams({
      name: 'hopping count',
      topology: windowed,
      inputs: clicks,
      outputs: ['per-window'],
    });
    const file = join(await mkdtemp(join(tmpdir(), 'streamwright-drive-')), 'windows.json');
    await writeFile(file, JSON.stringify(windowed));
    const run = await cli(['drive', file, '-r', '-'], { input: lines(clicks) });
    expect(run.code).toBe(0);
    const printed = jsonLines(run.stdout);
    expect(printed.map((r) => ({ key: r.key, value: r.value, timestamp: r.timestamp }))).toEqual(
      expected.map((r) => ({ key: r.key, value: r.value, timestamp: r.timestamp })),
    );
    expect(printed[0]).toEqual({
      topic: 'per-window',
      key: { key: 'ann', start: 0, end: 5000 },
      value: 1,
      timestamp: 1000,
    });
  });

  it('runs a transformValues with the --processors module’s value transformer, as Kafka Streams does', async () => {
    // The same upper-casing transformer tools/ks-oracle registers as `upperCase`.
    const dir = await mkdtemp(join(tmpdir(), 'streamwright-drive-'));
    const module = join(dir, 'code.mjs');
    await writeFile(
      module,
      'export const valueTransformers = { upperCase: () => ({ transform: (k, v) => (v === null ? null : String(v).toUpperCase()) }) };\n',
    );
    const topology = {
      schemaVersion: 1,
      application: { id: 'drive-tv', config: {} },
      topics: [
        { name: 'names', partitions: 1 },
        { name: 'upper', partitions: 1 },
      ],
      nodes: [
        { id: 'names', kind: 'table', config: { topic: 'names', valueSerde: 'string' } },
        { id: 'tv', kind: 'transformValues', config: { transformer: 'upperCase' } },
        { id: 't', kind: 'toStream', config: {} },
        { id: 'out', kind: 'sink', config: { topic: 'upper' } },
      ],
      edges: [
        { from: 'names', to: 'tv' },
        { from: 'tv', to: 't' },
        { from: 't', to: 'out' },
      ],
    };
    const input = [
      { topic: 'names', key: 'a', value: 'ann', timestamp: 1 },
      { topic: 'names', key: 'b', value: 'bob', timestamp: 2 },
      { topic: 'names', key: 'a', value: null, timestamp: 3 },
    ];
    const expected = await kafkaStreams({
      name: 'tv',
      topology,
      inputs: input,
      outputs: ['upper'],
    });
    const file = join(dir, 'tv.json');
    await writeFile(file, JSON.stringify(topology));
    const run = await cli(['drive', file, '-r', '-', '--processors', module], {
      input: lines(input),
    });
    expect(run.stderr).toBe('');
    expect(jsonLines(run.stdout)).toEqual(expected.map((r) => ({ topic: 'upper', ...r })));
    expect(expected.map((r) => r.value)).toEqual(['ANN', 'BOB', null]);
  });

  it('says where a named processor comes from when --processors is missing', async () => {
    const run = await cli(
      [
        'drive',
        fileURLToPath(
          new URL('../../../examples/word-count/word-count.topology.json', import.meta.url),
        ),
        '-r',
        '-',
      ],
      {
        input: '',
      },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/processor "WordCountProcessor" is not registered/);
    expect(run.stderr).toMatch(/drive takes them from --processors <module>/);
  });

  it('stops at a bad line, naming it, after printing what the lines before it wrote', async () => {
    const file = example('stream-sum.topology.json');
    const bad = await cli(['drive', file, '-r', '-'], {
      input: `${JSON.stringify(scores[0])}\n{"topic":"scores","key":"Lily","value":2}\n`,
    });
    expect(bad.code).toBe(1);
    expect(jsonLines(bad.stdout)).toHaveLength(1);
    expect(bad.stderr).toBe(
      'error: line 2: "timestamp" is missing (epoch ms): every record needs one\n',
    );
    const unknown = await cli(['drive', file, '-r', '-'], {
      input: '{"topic":"nope","key":"a","value":1,"timestamp":0}\n',
    });
    expect(unknown.stderr).toMatch(/^error: line 1: topic nope is not read by this topology/);
    const notJson = await cli(['drive', file, '-r', '-'], { input: '{"topic":\n' });
    expect(notJson.stderr).toMatch(/^error: line 1: not JSON: /);
    const advance = await cli(['drive', file, '-r', '-'], {
      input: '{"advanceWallClockMs": 1000}\n{"advanceWallClockMs": -1}\n',
    });
    expect(advance.stderr).toBe('error: line 2: advanceWallClockMs must be an integer ≥ 0\n');
    const serde = await cli(['drive', file, '-r', '-'], {
      input: '{"topic":"scores","key":"a","value":"ten","timestamp":0}\n',
    });
    expect(serde.code).toBe(1);
    expect(serde.stderr).toMatch(/^error: line 1: long serde cannot serialize/);
  });

  it('carries headers as Kafka has them: an ordered array, text or base64, old form read', async () => {
    const topology = {
      schemaVersion: 1,
      application: { id: 'drive-headers', config: {} },
      topics: [
        { name: 'events', partitions: 1 },
        { name: 'kept', partitions: 1 },
      ],
      nodes: [
        { id: 'events', kind: 'source', config: { topic: 'events', valueSerde: 'string' } },
        { id: 'keep', kind: 'filter', config: { expression: 'value != "drop"' } },
        {
          id: 'out',
          kind: 'sink',
          config: { topic: 'kept', keySerde: 'string', valueSerde: 'string' },
        },
      ],
      edges: [
        { from: 'events', to: 'keep' },
        { from: 'keep', to: 'out' },
      ],
    };
    const binary = [
      { key: 'trace', value: 't-1' },
      { key: 'bin', value: { base64: Buffer.from([0xff, 0x00, 0xfe]).toString('base64') } },
      { key: 'trace', value: 'again' }, // a repeated key, after another
      { key: 'none', value: null },
    ];
    const input = [
      { topic: 'events', key: 'a', value: 'one', timestamp: 1000, headers: binary },
      { topic: 'events', key: 'b', value: 'drop', timestamp: 2000, headers: binary },
      { topic: 'events', key: 'c', value: 'two', timestamp: 3000, headers: { source: 'cli' } },
      { topic: 'events', key: 'd', value: 'three', timestamp: 4000 },
    ];
    // Kafka Streams: a record keeps its headers through a filter (text headers through the
    // oracle; its view is one text value per name).
    const expected = await kafkaStreams({
      name: 'headers through a filter',
      topology,
      inputs: input
        .filter((r) => r.key !== 'a')
        .map(({ headers, ...r }) =>
          headers === undefined || Array.isArray(headers) ? r : { ...r, headers },
        ),
      outputs: ['kept'],
      withHeaders: true,
    });
    expect(expected.map((r) => [r.key, r.headers ?? {}])).toEqual([
      ['c', { source: 'cli' }],
      ['d', {}],
    ]);
    const file = join(await mkdtemp(join(tmpdir(), 'streamwright-drive-')), 'headers.json');
    await writeFile(file, JSON.stringify(topology));
    const run = await cli(['drive', file, '-r', '-'], { input: lines(input) });
    expect(run.stderr).toBe('');
    expect(jsonLines(run.stdout)).toEqual([
      { topic: 'kept', key: 'a', value: 'one', timestamp: 1000, headers: binary },
      {
        topic: 'kept',
        key: 'c',
        value: 'two',
        timestamp: 3000,
        headers: [{ key: 'source', value: 'cli' }],
      },
      { topic: 'kept', key: 'd', value: 'three', timestamp: 4000 },
    ]);

    const bad = await cli(['drive', file, '-r', '-'], {
      input: lines([
        { topic: 'events', key: 'x', value: 'v', timestamp: 1, headers: [{ key: 'k', value: 5 }] },
      ]),
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(
      'line 1: headers[0].value: expected text, {"base64": "…"} or null',
    );
  });
});
