// Property test: arbitrary sequences of appends, reads, compactions, retention runs, deleteRecords
// and restarts, with an injected clock, against a deliberately simple in-memory model that knows
// nothing about segments. Where Kafka leaves room (which segments compaction or retention
// reach), the model checks that the log's answer is one of the outcomes Kafka allows.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Log } from '../src/log.js';
import { manualClock, tmpDir } from './helpers.js';

type Policy = 'delete' | 'compact' | 'compact,delete';

interface ModelRecord {
  offset: number;
  key: string | null;
  value: string | null;
  timestamp: number;
  appendedAt: number;
}

type Op =
  | { kind: 'append'; records: { key: number | null; value: string | null; skew: number }[] }
  | { kind: 'tick'; ms: number }
  | { kind: 'read'; from: number; max: number }
  | { kind: 'compact' }
  | { kind: 'retention' }
  | { kind: 'deleteRecords'; at: number }
  | { kind: 'restart' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('append' as const),
      records: fc.array(
        fc.record({
          key: fc.option(fc.nat(5), { nil: null, freq: 6 }),
          value: fc.option(fc.string({ minLength: 1, maxLength: 30 }), { nil: null, freq: 5 }),
          skew: fc.integer({ min: -300, max: 300 }),
        }),
        { minLength: 1, maxLength: 6 },
      ),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('tick' as const),
      ms: fc.integer({ min: 1, max: 3000 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('read' as const),
      from: fc.nat(100),
      max: fc.integer({ min: 1, max: 20 }),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'compact' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'retention' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('deleteRecords' as const), at: fc.nat(100) }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
);

const configArb = fc.record({
  policy: fc.constantFrom<Policy>('delete', 'compact', 'compact,delete'),
  segmentBytes: fc.integer({ min: 150, max: 1200 }),
  retentionMs: fc.integer({ min: 500, max: 8000 }),
  deleteRetentionMs: fc.integer({ min: 0, max: 5000 }),
  timestampType: fc.constantFrom('CreateTime', 'LogAppendTime'),
});

const str = (b: Uint8Array | null): string | null =>
  b === null ? null : Buffer.from(b).toString();

async function readAll(
  log: Log,
): Promise<{ offset: number; key: string | null; value: string | null; timestamp: number }[]> {
  const out: { offset: number; key: string | null; value: string | null; timestamp: number }[] = [];
  let off = log.earliestOffset('t', 0);
  for (;;) {
    const r = await log.fetch('t', 0, off, { maxBytes: 256 });
    if (r.records.length === 0) return out;
    for (const x of r.records)
      out.push({ offset: x.offset, key: str(x.key), value: str(x.value), timestamp: x.timestamp });
    off = r.nextOffset;
  }
}

describe('the log against an in-memory model', () => {
  it('gives the model’s answers for any sequence of operations', async () => {
    await fc.assert(
      fc.asyncProperty(
        configArb,
        fc.array(opArb, { minLength: 1, maxLength: 30 }),
        async (cfg, ops) => {
          const dir = tmpDir('swlog-model-');
          const clock = manualClock(1_000_000);
          const compacted = cfg.policy !== 'delete';
          const deletes = cfg.policy !== 'compact';
          const open = () => Log.open({ dataDir: dir, clock: clock.now, background: false });
          let log = await open();
          await log.createTopic('t', 1, {
            'cleanup.policy': cfg.policy,
            'segment.bytes': cfg.segmentBytes,
            'retention.ms': cfg.retentionMs,
            'delete.retention.ms': cfg.deleteRetentionMs,
            'message.timestamp.type': cfg.timestampType,
            'index.interval.bytes': 64,
          });
          // ---- the model ----
          const model: ModelRecord[] = [];
          let logStart = 0;
          let removalsHappened = false;
          let alive = new Set<number>();
          try {
            for (const op of ops) {
              switch (op.kind) {
                case 'append': {
                  const recs = op.records.map((r) => ({
                    key: compacted ? String(r.key ?? 0) : r.key === null ? null : String(r.key),
                    value: r.value,
                    timestamp: clock.now() + r.skew,
                  }));
                  const meta = await log.produce(
                    recs.map((r) => ({
                      topic: 't',
                      partition: 0,
                      key: r.key === null ? null : Buffer.from(r.key),
                      value: r.value === null ? null : Buffer.from(r.value),
                      timestamp: r.timestamp,
                    })),
                  );
                  recs.forEach((r, i) => {
                    const offset = model.length;
                    expect(meta[i]!.offset).toBe(offset);
                    const timestamp =
                      cfg.timestampType === 'LogAppendTime' ? clock.now() : r.timestamp;
                    expect(meta[i]!.timestamp).toBe(timestamp);
                    model.push({
                      offset,
                      key: r.key,
                      value: r.value,
                      timestamp,
                      appendedAt: clock.now(),
                    });
                    alive.add(offset);
                  });
                  break;
                }
                case 'tick':
                  clock.advance(op.ms);
                  break;
                case 'read': {
                  const from = Math.min(logStart + op.from, model.length);
                  const actual = await readAll(log);
                  const r = await log.fetch('t', 0, from, { maxRecords: op.max, maxBytes: 200 });
                  // A fetch returns a non-empty prefix of what follows `from` (Kafka may stop early).
                  const expected = actual.filter((a) => a.offset >= from).map((a) => a.offset);
                  const got = r.records.map((x) => x.offset);
                  expect(got.length).toBeLessThanOrEqual(op.max);
                  expect(got.length > 0).toBe(expected.length > 0);
                  expect(got).toEqual(expected.slice(0, got.length));
                  break;
                }
                case 'compact':
                  await log.compact('t', 0);
                  removalsHappened = true;
                  break;
                case 'retention': {
                  const cutoff = clock.now() - cfg.retentionMs;
                  log.runRetention();
                  removalsHappened = true;
                  const newStart = log.earliestOffset('t', 0);
                  if (deletes) {
                    // Retention deletes whole old segments only: never one holding an unexpired record.
                    const firstUnexpired = model.find(
                      (m) => m.offset >= logStart && alive.has(m.offset) && m.timestamp >= cutoff,
                    );
                    if (firstUnexpired) expect(newStart).toBeLessThanOrEqual(firstUnexpired.offset);
                  } else {
                    expect(newStart).toBe(logStart);
                  }
                  logStart = newStart;
                  break;
                }
                case 'deleteRecords': {
                  const at = Math.min(logStart + op.at, model.length);
                  await log.deleteRecords('t', 0, at);
                  logStart = Math.max(logStart, at);
                  removalsHappened = true;
                  expect(log.earliestOffset('t', 0)).toBe(logStart);
                  break;
                }
                case 'restart':
                  await log.close();
                  log = await open();
                  expect(log.recoveryEvents).toEqual([]);
                  break;
              }
              // ---- invariants after every step ----
              expect(log.latestOffset('t', 0)).toBe(model.length);
              expect(log.earliestOffset('t', 0)).toBe(logStart);
              const actual = await readAll(log);
              let prev = -1;
              for (const a of actual) {
                expect(a.offset).toBeGreaterThan(prev); // strictly increasing
                prev = a.offset;
                const m = model[a.offset]!;
                expect(a).toEqual({
                  offset: m.offset,
                  key: m.key,
                  value: m.value,
                  timestamp: m.timestamp,
                }); // never invented
                expect(alive.has(a.offset)).toBe(true); // never resurrected
                expect(a.offset).toBeGreaterThanOrEqual(logStart);
              }
              const present = new Set(actual.map((a) => a.offset));
              if (!removalsHappened) {
                expect(actual.length).toBe(model.length);
              } else if (!compacted) {
                // delete policy: everything from the log start on is there
                expect(actual.map((a) => a.offset)).toEqual(
                  model.filter((m) => m.offset >= logStart).map((m) => m.offset),
                );
              } else {
                // compaction keeps at least the latest record of every key (from the log start on),
                // a tombstone only until delete.retention.ms after it was written
                const latest = new Map<string, ModelRecord>();
                for (const m of model) latest.set(m.key!, m);
                for (const m of latest.values()) {
                  if (m.offset < logStart) continue;
                  if (deletes && !present.has(m.offset)) continue; // compact,delete: retention may take it
                  const tombstoneMayGo =
                    m.value === null && clock.now() - m.appendedAt >= cfg.deleteRetentionMs;
                  if (!tombstoneMayGo) expect(present.has(m.offset)).toBe(true);
                }
                if (deletes) {
                  // retention removes only a prefix: once a record is present, every latest-per-key after it is
                  const first = actual[0]?.offset ?? Infinity;
                  for (const m of latest.values()) {
                    const tombstoneMayGo =
                      m.value === null && clock.now() - m.appendedAt >= cfg.deleteRetentionMs;
                    if (m.offset > first && !tombstoneMayGo)
                      expect(present.has(m.offset)).toBe(true);
                  }
                }
              }
              alive = present;
            }
          } finally {
            await log.close();
          }
        },
      ),
      { numRuns: Number(process.env.LOG_PROPERTY_RUNS ?? 40) },
    );
  }, 600_000);
});
