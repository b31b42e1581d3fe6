// The word-count Processor, driven like Kafka's WordCountProcessorTest
// (streams/examples/.../wordcount/WordCountProcessorTest.java): the input
// "alpha beta\tgamma\n\talpha" gives alpha=2, beta=1, gamma=1, forwarded only by the punctuation,
// in key order. Here the punctuation is WALL_CLOCK_TIME, fired by advancing the test driver's
// wall clock; a forwarded record carries the punctuation's time.
import { readFileSync } from 'node:fs';
import { createTestDriver, type TestDriver } from '@streamwright/engine';
import { validateTopology } from '@streamwright/topology-model';
import { describe, expect, it } from 'vitest';
import { wordCount } from '../word-count/word-count-dsl.js';
import { processors, splitWords } from '../word-count/word-count-processor.js';

function fromJson(): TestDriver {
  const doc: unknown = JSON.parse(
    readFileSync(new URL('../word-count/word-count.topology.json', import.meta.url), 'utf8'),
  );
  const result = validateTopology(doc);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return createTestDriver(result.topology, { processors, now: () => 0 });
}

const drivers: [string, () => TestDriver][] = [
  ['topology JSON + processor registry', fromJson],
  ['DSL program', () => createTestDriver(wordCount(), { now: () => 0 })],
];

describe.each(drivers)(
  'word count Processor with punctuation every second (%s)',
  (_name, create) => {
    it('forwards nothing from process(), then every count once a second, in key order', () => {
      const driver = create();
      const out = driver.createOutputTopic('word-counts');
      driver.pipeInput('lines', 'key', 'alpha beta\tgamma\n\talpha', 0);
      expect(out.isEmpty()).toBe(true);

      driver.advanceWallClockTime(999);
      expect(out.isEmpty()).toBe(true);

      driver.advanceWallClockTime(1);
      expect(out.readRecordsToList().map((r) => [r.key, r.value, r.timestamp])).toEqual([
        ['alpha', '2', 1000],
        ['beta', '1', 1000],
        ['gamma', '1', 1000],
      ]);

      driver.pipeInput('lines', 'key', 'Beta', 1500);
      driver.advanceWallClockTime(1000);
      expect(out.readRecordsToList().map((r) => [r.key, r.value, r.timestamp])).toEqual([
        ['alpha', '2', 2000],
        ['beta', '2', 2000],
        ['gamma', '1', 2000],
      ]);
      expect(driver.getKeyValueStore('Counts').get('beta')).toBe(2);
    });

    it('skips missed punctuations instead of replaying them', () => {
      const driver = create();
      const out = driver.createOutputTopic('word-counts');
      driver.pipeInput('lines', 'k', 'hello', 0);
      driver.advanceWallClockTime(5500);
      // One punctuation for the whole gap, at the current wall-clock time.
      expect(out.readRecordsToList().map((r) => [r.key, r.value, r.timestamp])).toEqual([
        ['hello', '1', 5500],
      ]);
      driver.advanceWallClockTime(499);
      expect(out.isEmpty()).toBe(true);
      driver.advanceWallClockTime(1);
      expect(out.readRecordsToList().map((r) => r.timestamp)).toEqual([6000]);
    });
  },
);

describe('splitWords', () => {
  it('splits like Java’s split("\\\\W+")', () => {
    expect(splitWords('alpha beta\tgamma\n\talpha')).toEqual(['alpha', 'beta', 'gamma', 'alpha']);
    expect(splitWords(' lead, trail. ')).toEqual(['', 'lead', 'trail']);
  });
});
