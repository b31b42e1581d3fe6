// `streamwright topics|produce|consume` on a data dir directly: the built CLI in child processes,
// real files, the real embedded backend.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, ensureBuilt, jsonLines } from './cli-harness.js';
import { makeDataDir, removeDataDir } from './harness.js';

let root: string;
let dir: string;

beforeAll(async () => {
  await ensureBuilt();
  root = await makeDataDir();
  dir = join(root, 'data');
}, 300_000);

afterAll(async () => {
  await removeDataDir(root);
});

const sw = (args: string[], input?: string) =>
  cli([...args, '--data-dir', dir], input === undefined ? {} : { input });

interface Line {
  partition: number;
  offset: number;
  timestamp: number;
  key: unknown;
  value: unknown;
  headers: unknown[];
  undecodable?: { key: boolean; value: boolean };
}

const lines = (...records: object[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

// Each test spawns CLI processes one after another: slow on a loaded machine.
describe('topics on a data dir', { timeout: 120_000 }, () => {
  it('creates, lists, describes and deletes topics, with configs as flags', async () => {
    const created = await sw([
      'topics',
      'create',
      'orders',
      '--partitions',
      '5',
      '--config',
      'retention.ms=86400000',
      '-c',
      'cleanup.policy=delete',
    ]);
    expect(created).toMatchObject({ code: 0, stdout: 'Created topic orders with 5 partitions.\n' });
    expect((await sw(['topics', 'create', 'scratch'])).code).toBe(0);

    const list = await sw(['topics', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^TOPIC\s+PARTITIONS\s+RECORDS/);
    expect(list.stdout).toMatch(/^orders\s+5\s+0$/m);
    expect(list.stdout).toMatch(/^scratch\s+1\s+0$/m);

    const described = await sw(['topics', 'describe', 'orders', '--json']);
    expect(JSON.parse(described.stdout)).toMatchObject({
      name: 'orders',
      partitions: 5,
      config: { 'retention.ms': '86400000', 'cleanup.policy': 'delete' },
      internal: false,
    });
    const text = await sw(['topics', 'describe', 'orders']);
    expect(text.stdout).toMatch(
      /^Topic: orders\tPartitionCount: 5\tInternal: false\tConfigs: cleanup\.policy=delete,retention\.ms=86400000$/m,
    );
    expect(text.stdout).toMatch(/^4\s+0\s+0\s+0$/m);

    expect(await sw(['topics', 'delete', 'scratch'])).toMatchObject({
      code: 0,
      stdout: 'Deleted topic scratch.\n',
    });
    expect((await sw(['topics', 'list'])).stdout).not.toMatch(/scratch/);
  });

  it('refuses an existing topic, an unknown config, a bad value and a missing topic', async () => {
    const again = await sw(['topics', 'create', 'orders']);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('error: topic "orders" already exists\n');

    const typo = await sw(['topics', 'create', 't2', '--config', 'retention.msec=5']);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toMatch(/unknown topic config "retention\.msec"/);

    const bad = await sw(['topics', 'create', 't2', '--config', 'cleanup.policy=sometimes']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/cleanup\.policy must be "delete", "compact" or "compact,delete"/);

    // the runtime API's checks and words, on a data dir too
    const many = await sw(['topics', 'create', 't2', '--partitions', '5000']);
    expect(many).toMatchObject({
      code: 1,
      stderr: 'error: Invalid input: partitions: must be an integer from 1 to 1024, got 5000\n',
    });
    const spaced = await sw(['topics', 'create', 'no spaces']);
    expect(spaced.code).toBe(1);
    expect(spaced.stderr).toMatch(/name: topic names may only contain .*, got "no spaces"/);

    const flag = await sw(['topics', 'create', 't2', '--config', 'noequals']);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toMatch(/expected key=value/);

    const missing = await sw(['topics', 'describe', 'nope']);
    expect(missing).toMatchObject({ code: 1, stderr: 'error: topic "nope" does not exist\n' });
  });

  it('refuses to work on a data dir that does not exist (except to create a topic)', async () => {
    const result = await cli(['topics', 'list', '--data-dir', join(root, 'nowhere')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/no data dir at .*nowhere/);
  });
});

// Each test spawns CLI processes one after another: slow on a loaded machine.
describe('produce and consume on a data dir', { timeout: 120_000 }, () => {
  it('round-trips JSON lines, partitioning keys with murmur2 as Java clients do', async () => {
    // Kafka's murmur2 test vectors: partition = (murmur2(key) & 0x7fffffff) % 5.
    const input = lines(
      { key: 'foobar', value: 'v1' }, // murmur2 -790332482 → partition 1
      { key: '21', value: 'v2' }, // -973932308 → 0
      { key: 'abc', value: 'v3', timestamp: 1_700_000_000_000, headers: { source: 'cli' } }, // 479470107 → 2
      { key: 'a-little-bit-long-string', value: null }, // -985981536 → 2
      { value: 'no key', partition: 4 },
    );
    const produced = await sw(['produce', 'orders'], input);
    expect(produced).toMatchObject({ code: 0, stderr: 'produced 5 records to orders\n' });

    const consumed = await sw(['consume', 'orders', '--from-beginning']);
    expect(consumed.code).toBe(0);
    expect(consumed.stderr).toBe('consumed 5 records from orders\n');
    const records = jsonLines<Line>(consumed.stdout);
    const byKey = new Map(records.map((r) => [r.key, r]));
    expect(byKey.get('foobar')).toMatchObject({ partition: 1, offset: 0, value: 'v1' });
    expect(byKey.get('21')).toMatchObject({ partition: 0, offset: 0, value: 'v2' });
    expect(byKey.get('abc')).toEqual({
      partition: 2,
      offset: 0,
      timestamp: 1_700_000_000_000,
      key: 'abc',
      value: 'v3',
      headers: [{ key: 'source', value: 'cli' }],
    });
    expect(byKey.get('a-little-bit-long-string')).toMatchObject({
      partition: 2,
      offset: 1,
      value: null,
    });
    expect(byKey.get(null)).toMatchObject({ partition: 4, offset: 0, value: 'no key' });
    // The keys of each output line, in its field order.
    expect(Object.keys(records[0]!)).toEqual([
      'partition',
      'offset',
      'timestamp',
      'key',
      'value',
      'headers',
    ]);
  });

  it('keeps headers as Kafka has them: bytes, null, repeated keys, order', async () => {
    // 0xff 0x00 is not UTF-8: it must come back as base64, not as replacement characters.
    const headers = [
      { key: 'trace', value: 'b' },
      { key: 'sig', value: { base64: '/wA=' } },
      { key: 'trace', value: 'a' },
      { key: 'empty', value: null },
      { key: 'trace', value: '' },
    ];
    expect((await sw(['topics', 'create', 'hdrs'])).code).toBe(0);
    const produced = await sw(['produce', 'hdrs'], lines({ key: 'k', value: 'v', headers }));
    expect(produced).toMatchObject({ code: 0, stderr: 'produced 1 record to hdrs\n' });
    const consumed = await sw(['consume', 'hdrs', '--from-beginning']);
    const [record] = jsonLines<Line>(consumed.stdout);
    expect(record!.headers).toEqual(headers);

    // consume's lines are produce's input: copied to another topic, the headers are identical.
    expect((await sw(['topics', 'create', 'hdrs-copy'])).code).toBe(0);
    const copied = await sw(
      ['produce', 'hdrs-copy'],
      consumed.stdout.replace(/"partition":\d+,"offset":\d+,/g, ''),
    );
    expect(copied.code, copied.stderr).toBe(0);
    const again = jsonLines<Line>((await sw(['consume', 'hdrs-copy', '--from-beginning'])).stdout);
    expect(again.map((r) => r.headers)).toEqual([headers]);
  });

  it('prints windowed keys with their windows per --key-window', async () => {
    // Kafka's layouts: TimeWindowedSerializer writes key bytes then the start (int64 BE);
    // SessionWindowedSerializer key bytes, end, start.
    const longs = (...ns: number[]) =>
      Buffer.concat(
        ns.map((n) => {
          const b = Buffer.alloc(8);
          b.writeBigInt64BE(BigInt(n));
          return b;
        }),
      );
    const b64 = (...parts: Buffer[]) => Buffer.concat(parts).toString('base64');
    expect((await sw(['topics', 'create', 'windowed', '-p', '1'])).code).toBe(0);
    const produced = await sw(
      ['produce', 'windowed', '--key-format', 'base64'],
      lines(
        { key: b64(Buffer.from('ann'), longs(60_000)), value: 'time' },
        { key: b64(Buffer.from('bob'), longs(5000, 1000)), value: 'session' },
      ),
    );
    expect(produced.code).toBe(0);
    const asTime = jsonLines<Line>(
      (
        await sw([
          'consume',
          'windowed',
          '--from-beginning',
          '--max',
          '1',
          '--key-window',
          'time:60000',
        ])
      ).stdout,
    );
    expect(asTime[0]!.key).toEqual({ key: 'ann', start: 60_000, end: 120_000 });
    const asSession = jsonLines<Line>(
      (await sw(['consume', 'windowed', '--from-beginning', '--key-window', 'session'])).stdout,
    );
    expect(asSession[1]!.key).toEqual({ key: 'bob', start: 1000, end: 5000 });
    const bad = await sw(['consume', 'windowed', '--key-window', 'hopping']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--key-window.*expected time:<window size ms>, session or store/);
  });

  it('reads and writes keys and values as json, base64 and long', async () => {
    expect((await sw(['topics', 'create', 'typed', '-p', '1'])).code).toBe(0);
    const produced = await sw(
      ['produce', 'typed', '--key-format', 'long', '--value-format', 'json'],
      lines(
        { key: 7, value: { user: 'u1', amount: 120.5, tags: ['a'] } },
        { key: '9007199254740993', value: [1, 2, 3] },
      ),
    );
    expect(produced.code).toBe(0);
    const asTyped = jsonLines<Line>(
      (
        await sw([
          'consume',
          'typed',
          '--from-beginning',
          '--key-format',
          'long',
          '--value-format',
          'json',
        ])
      ).stdout,
    );
    expect(asTyped.map((r) => [r.key, r.value])).toEqual([
      [7, { user: 'u1', amount: 120.5, tags: ['a'] }],
      // Beyond 2^53 a long is printed as a string, so no digit is lost.
      ['9007199254740993', [1, 2, 3]],
    ]);

    // The same bytes as base64: a long is 8 bytes big-endian (Java's LongSerializer).
    const raw = jsonLines<Line>(
      (
        await sw([
          'consume',
          'typed',
          '--from-beginning',
          '--key-format',
          'base64',
          '--value-format',
          'base64',
        ])
      ).stdout,
    );
    expect(Buffer.from(raw[0]!.key as string, 'base64')).toEqual(
      Buffer.from([0, 0, 0, 0, 0, 0, 0, 7]),
    );
    expect(Buffer.from(raw[1]!.value as string, 'base64').toString()).toBe('[1,2,3]');

    // base64 in, and bytes that are not text shown as base64 and flagged.
    const binary = Buffer.from([0xff, 0xfe, 0x00, 0x01]).toString('base64');
    expect(
      (
        await sw(
          ['produce', 'typed', '--value-format', 'base64'],
          lines({ key: null, value: binary }),
        )
      ).code,
    ).toBe(0);
    const asString = jsonLines<Line>((await sw(['consume', 'typed', '--from-beginning'])).stdout);
    expect(asString[2]).toMatchObject({
      key: null,
      value: binary,
      undecodable: { key: false, value: true },
    });
  });

  it('stops at a bad line with its number, exit 1 and the count acknowledged before it', async () => {
    expect((await sw(['topics', 'create', 'strict', '-p', '2'])).code).toBe(0);
    const input = [
      '{"key":"a","value":"1"}',
      '',
      '{"key":"b","value":"2"}',
      '{"key":"c","value":',
      '{"key":"d","value":"4"}',
    ].join('\n');
    const result = await sw(['produce', 'strict'], input);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error: line 4: not JSON \(.*\) \(2 records acknowledged before it\)\n$/,
    );
    const consumed = jsonLines<Line>((await sw(['consume', 'strict', '--from-beginning'])).stdout);
    expect(consumed.map((r) => r.key).sort()).toEqual(['a', 'b']);

    const cases: [string, RegExp][] = [
      [
        '{"key":1,"value":"x"}',
        /line 1: key: the string format takes a JSON string \(or null\), got a number/,
      ],
      ['{"key":"k"}', /line 1: value: missing/],
      ['{"key":"k","value":"v","valeu":"w"}', /line 1: unknown field "valeu"/],
      [
        '{"key":"k","value":"v","partition":2}',
        /line 1: partition: the topic has partitions 0\.\.1, got 2/,
      ],
      ['{"key":"k","value":"v","timestamp":-5}', /line 1: timestamp: expected milliseconds/],
      ['{"key":"k","value":"v","headers":{"n":1}}', /line 1: headers\.n: expected a string/],
      [
        '{"key":"k","value":"v","headers":[{"key":"k","value":5}]}',
        /line 1: headers\[0\]\.value: expected text, \{"base64": "…"\} or null/,
      ],
      [
        '{"key":"k","value":"v","headers":[{"key":"k","value":{"base64":"no!"}}]}',
        /line 1: headers\[0\]\.value: expected text/,
      ],
      ['[1,2]', /line 1: expected a JSON object/],
    ];
    for (const [line, message] of cases) {
      const refused = await sw(['produce', 'strict'], `${line}\n`);
      expect(refused.code, line).toBe(1);
      expect(refused.stderr, line).toMatch(message);
      expect(refused.stderr, line).toMatch(/\(0 records acknowledged before it\)/);
    }
    const base64 = await sw(
      ['produce', 'strict', '--value-format', 'base64'],
      lines({ value: 'not base64!' }),
    );
    expect(base64.stderr).toMatch(/line 1: value: the bytes serde takes base64 text/);

    const missing = await sw(['produce', 'nope'], lines({ value: 'x' }));
    expect(missing).toMatchObject({ code: 1, stderr: 'error: topic "nope" does not exist\n' });
  });

  it('consumes one partition, at most n records, and only up to the end of the log', async () => {
    expect((await sw(['topics', 'create', 'many', '-p', '3'])).code).toBe(0);
    const input = lines(
      ...Array.from({ length: 30 }, (_, i) => ({ key: `k${i}`, value: `v${i}`, partition: i % 3 })),
    );
    expect((await sw(['produce', 'many'], input)).code).toBe(0);

    const p1 = jsonLines<Line>(
      (await sw(['consume', 'many', '--from-beginning', '--partition', '1'])).stdout,
    );
    expect(p1.map((r) => r.value)).toEqual(Array.from({ length: 10 }, (_, i) => `v${i * 3 + 1}`));
    expect(p1.map((r) => r.offset)).toEqual(Array.from({ length: 10 }, (_, i) => i));

    const five = await sw(['consume', 'many', '--from-beginning', '--max', '5']);
    expect(jsonLines(five.stdout)).toHaveLength(5);
    expect(five.stderr).toBe('consumed 5 records from many\n');

    // Without --from-beginning (and no group offsets) a consumer starts at the end: nothing.
    const latest = await sw(['consume', 'many']);
    expect(latest).toMatchObject({ code: 0, stdout: '', stderr: 'consumed 0 records from many\n' });

    const outside = await sw(['consume', 'many', '--partition', '3']);
    expect(outside.code).toBe(1);
    expect(outside.stderr).toMatch(/--partition: topic "many" has partitions 0\.\.2, not 3/);
  });

  it('resumes a consumer group from its committed offsets', async () => {
    const first = jsonLines<Line>(
      (await sw(['consume', 'many', '--group', 'g1', '--from-beginning', '--max', '12'])).stdout,
    );
    expect(first).toHaveLength(12);
    const rest = jsonLines<Line>((await sw(['consume', 'many', '--group', 'g1'])).stdout);
    expect(rest).toHaveLength(18);
    const seen = [...first, ...rest].map((r) => `${r.partition}:${r.offset}`);
    expect(new Set(seen).size).toBe(30);
    // Everything is committed: the group has nothing left, with or without --from-beginning.
    expect(
      jsonLines((await sw(['consume', 'many', '--group', 'g1', '--from-beginning'])).stdout),
    ).toHaveLength(0);
    // Another group starts from scratch.
    expect(
      jsonLines((await sw(['consume', 'many', '--group', 'g2', '--from-beginning'])).stdout),
    ).toHaveLength(30);
  });
});
