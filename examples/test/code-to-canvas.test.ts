// Code → canvas: examples/code-to-canvas/page-views.ts is the DSL program `streamwright export`
// turns into topology JSON (apps/runtime/test/cli-export.test.ts runs that and its round trip).
// Here the program runs: the records it writes must be Apache Kafka Streams' own for the JSON it
// exports (tools/ks-oracle runs that document on TopologyTestDriver), never a snapshot of ours.
import { StreamsBuilder, createTestDriver, type BuiltTopology } from '@streamwright/engine';
import { runOracle, type OracleRecord } from '@streamwright/ks-oracle';
import { exportTopology } from '@streamwright/topology-model';
import { beforeAll, describe, expect, it } from 'vitest';
import pageViews from '../code-to-canvas/page-views.js';

const OUTPUTS = ['page-views-enriched', 'views-per-minute'] as const;

/** What `streamwright export` does with the default export: build it under the file's name. */
function build(): BuiltTopology {
  const builder = new StreamsBuilder();
  pageViews(builder);
  return builder.build({ applicationId: 'page-views' });
}

const view = (page: string, user: string, userAgent: string) => ({ page, user, userAgent });
const inputs = [
  { topic: 'pages', key: 'home', value: { title: 'Home' }, timestamp: 0 },
  { topic: 'pages', key: 'docs', value: { title: 'Docs' }, timestamp: 0 },
  { topic: 'page-views', key: 'v1', value: view('home', 'ann', 'firefox'), timestamp: 1_000 },
  { topic: 'page-views', key: 'v2', value: view('docs', 'bob', 'googlebot'), timestamp: 2_000 },
  { topic: 'page-views', key: 'v3', value: view('docs', 'cy', 'chrome'), timestamp: 30_000 },
  { topic: 'page-views', key: 'v4', value: view('blog', 'ann', 'firefox'), timestamp: 40_000 },
  { topic: 'page-views', key: 'v5', value: view('home', 'bob', 'safari'), timestamp: 61_000 },
];

describe('code to canvas: the page-views program', () => {
  const expected = new Map<string, OracleRecord[]>();

  beforeAll(async () => {
    const [result] = await runOracle([
      {
        name: 'page-views',
        topology: JSON.parse(exportTopology(build().topology)),
        inputs,
        outputs: [...OUTPUTS],
      },
    ]);
    expect(result?.error, 'page-views on Kafka Streams').toBeUndefined();
    for (const topic of OUTPUTS) expected.set(topic, result?.outputs?.[topic] ?? []);
  }, 300_000);

  it('Kafka Streams drops the bot, joins the pages it knows and counts per page and minute', () => {
    expect(expected.get('page-views-enriched')!.map((r) => r.value)).toEqual([
      { page: 'home', title: 'Home', user: 'ann' },
      { page: 'docs', title: 'Docs', user: 'cy' },
      { page: 'home', title: 'Home', user: 'bob' },
    ]);
    expect(expected.get('views-per-minute')!.map((r) => [r.key, r.value])).toEqual([
      [{ key: 'home', start: 0, end: 60_000 }, 1],
      [{ key: 'docs', start: 0, end: 60_000 }, 1],
      [{ key: 'blog', start: 0, end: 60_000 }, 1],
      [{ key: 'home', start: 60_000, end: 120_000 }, 1],
    ]);
  });

  it('the program emits exactly Kafka Streams’ records', () => {
    const driver = createTestDriver(build());
    for (const r of inputs) driver.pipeInput(r.topic, r.key, r.value, r.timestamp);
    for (const topic of OUTPUTS) {
      const records = driver
        .readOutput(topic)
        .map((r) => ({ key: r.key, value: r.value, timestamp: r.timestamp }));
      expect(records, topic).toEqual(expected.get(topic));
    }
  });
});
