// A sink that writes a source's integer key unchanged writes the bytes it was read with instead of
// serializing the key again (Serde#exactBytes). What a user relies on: the output bytes are exactly
// Java's IntegerSerializer's of the key the record carries at the sink, whether the key came through
// unchanged, was changed, or a record of another key was emitted from the same input.
import { describe, expect, it } from 'vitest';
import { createTestDriver } from '../src/test-driver/test-driver.js';
import { topology } from './fixtures/topologies.js';

/** Java's IntegerSerializer: 4 bytes, big-endian two's complement. */
function javaInt(n: number): number[] {
  return [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
}

function pipeline(middle: { kind: string; config: Record<string, unknown> }) {
  return topology(
    'sink-key-bytes',
    {},
    [
      { name: 'in', partitions: 1, config: {} },
      { name: 'out', partitions: 3, config: {} },
    ],
    [
      {
        id: 'src',
        kind: 'source',
        config: { topic: 'in', keySerde: 'integer', valueSerde: 'integer' },
      },
      { id: 'mid', ...middle },
      {
        id: 'sink',
        kind: 'sink',
        config: { topic: 'out', keySerde: 'integer', valueSerde: 'integer' },
      },
    ] as never,
    [
      ['src', 'mid'],
      ['mid', 'sink'],
    ],
  );
}

function run(t: ReturnType<typeof pipeline>, keys: (number | null)[]) {
  const driver = createTestDriver(t);
  for (const [i, k] of keys.entries())
    driver.pipeRawInput(
      'in',
      k === null ? null : Uint8Array.from(javaInt(k)),
      Uint8Array.from(javaInt(i)),
      i,
    );
  const out = driver.readRawOutput('out').map((r) => ({
    key: r.key === null ? null : [...r.key],
    value: r.value === null ? null : [...r.value],
  }));
  driver.close();
  return out;
}

const KEYS = [7, -1, 0, 2147483647, -2147483648, 7, null];

describe('a sink writing a source key: its bytes', () => {
  it('an unchanged key is written as the bytes it was read with', () => {
    const out = run(pipeline({ kind: 'filter', config: { expression: 'true' } }), KEYS);
    expect(out.map((r) => r.key)).toEqual(KEYS.map((k) => (k === null ? null : javaInt(k))));
    expect(out.map((r) => r.value)).toEqual(KEYS.map((_, i) => javaInt(i)));
  });

  it('a changed key is serialized anew', () => {
    const out = run(
      pipeline({
        kind: 'map',
        config: { expression: '{"key": key == null ? 5 : key / 2, "value": value}' },
      }),
      [8, -6, 100, null],
    );
    expect(out.map((r) => r.key)).toEqual([javaInt(4), javaInt(-3), javaInt(50), javaInt(5)]);
  });

  it('records of the input key and of other keys from one input each get their own key bytes', () => {
    const out = run(
      pipeline({
        kind: 'flatMap',
        config: {
          expression:
            '[{"key": key, "value": 1}, {"key": key + 1, "value": 2}, {"key": key, "value": 3}]',
        },
      }),
      [41, -1],
    );
    expect(out.map((r) => [r.key, r.value])).toEqual([
      [javaInt(41), javaInt(1)],
      [javaInt(42), javaInt(2)],
      [javaInt(41), javaInt(3)],
      [javaInt(-1), javaInt(1)],
      [javaInt(0), javaInt(2)],
      [javaInt(-1), javaInt(3)],
    ]);
  });
});
