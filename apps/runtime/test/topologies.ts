// Topologies used by the runtime tests.

/** A 3-partition source → filter → mapValues → sink, with a configurable exception handler. */
export function ordersPipeline(
  handler?: 'log-and-fail' | 'log-and-continue',
): Record<string, unknown> {
  return {
    schemaVersion: 1,
    application: {
      id: 'orders-app',
      config: {
        'commit.interval.ms': 100,
        ...(handler ? { 'processing.exception.handler': handler } : {}),
      },
    },
    topics: [
      { name: 'orders', partitions: 3 },
      { name: 'large-orders', partitions: 3 },
    ],
    nodes: [
      { id: 'orders', kind: 'source', config: { topic: 'orders' } },
      { id: 'large', kind: 'filter', config: { expression: 'value.amount > 100' } },
      {
        id: 'shape',
        kind: 'mapValues',
        config: { expression: '{"user": value.user, "total": value.amount * 2}' },
      },
      { id: 'out', kind: 'sink', config: { topic: 'large-orders' } },
    ],
    edges: [
      { from: 'orders', to: 'large' },
      { from: 'large', to: 'shape' },
      { from: 'shape', to: 'out' },
    ],
  };
}

export interface Order {
  key: string;
  user: string;
  amount: number;
}

/** N orders; amounts 0, 10, 20, … so those above 100 are known in advance. */
export function orders(n: number, keyPrefix = 'k'): Order[] {
  return Array.from({ length: n }, (_, i) => ({
    key: `${keyPrefix}${i}`,
    user: `u${i % 4}`,
    amount: i * 10,
  }));
}

export function expectedSink(
  input: Order[],
): { key: string; value: { user: string; total: number } }[] {
  return input
    .filter((o) => o.amount > 100)
    .map((o) => ({ key: o.key, value: { user: o.user, total: o.amount * 2 } }));
}

/**
 * words (2 partitions) → groupByKey → count (store `counts`) → toStream → word-counts (longs).
 * The tests count every update, so the record cache is off (as Kafka's integration tests do).
 */
export function wordCount(): Record<string, unknown> {
  return {
    schemaVersion: 1,
    application: {
      id: 'word-count',
      config: { 'commit.interval.ms': 100, 'statestore.cache.max.bytes': 0 },
    },
    topics: [
      { name: 'words', partitions: 2 },
      { name: 'word-counts', partitions: 2 },
    ],
    nodes: [
      { id: 'words', kind: 'source', config: { topic: 'words', valueSerde: 'string' } },
      { id: 'group', kind: 'groupByKey', config: {} },
      { id: 'count', kind: 'count', config: { store: 'counts' } },
      { id: 'changes', kind: 'toStream', config: {} },
      {
        id: 'out',
        kind: 'sink',
        config: { topic: 'word-counts', keySerde: 'string', valueSerde: 'long' },
      },
    ],
    edges: [
      { from: 'words', to: 'group' },
      { from: 'group', to: 'count' },
      { from: 'count', to: 'changes' },
      { from: 'changes', to: 'out' },
    ],
  };
}

/** A 10 s tumbling count (`per-10s`) and a 5 s-gap session count (`visits`) of clicks per user. */
export function clickCounts(): Record<string, unknown> {
  const counted = (id: string, window: Record<string, unknown>, store: string) => [
    { id: `${id}-w`, kind: 'windowedBy', config: { window } },
    { id, kind: 'windowedCount', config: { store, retentionMs: 3_600_000 } },
  ];
  return {
    schemaVersion: 1,
    application: { id: 'clicks-app', config: { 'commit.interval.ms': 100 } },
    topics: [{ name: 'clicks', partitions: 3 }],
    nodes: [
      {
        id: 'clicks',
        kind: 'source',
        config: { topic: 'clicks', keySerde: 'string', valueSerde: 'string' },
      },
      { id: 'g', kind: 'groupByKey', config: {} },
      ...counted('per10s', { type: 'tumbling', sizeMs: 10_000, graceMs: 60_000 }, 'per-10s'),
      ...counted('visits', { type: 'session', gapMs: 5000, graceMs: 60_000 }, 'visits'),
    ],
    edges: [
      { from: 'clicks', to: 'g' },
      { from: 'g', to: 'per10s-w' },
      { from: 'per10s-w', to: 'per10s' },
      { from: 'g', to: 'visits-w' },
      { from: 'visits-w', to: 'visits' },
    ],
  };
}
