// kcat (librdkafka 2.0.2, Debian's; `npm test` installs it) against the listener: metadata (-L),
// produce (-P), consume (-C) and a balanced consumer group (-G), which negotiate their own
// versions of every API.
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Harness } from './harness.js';

const h = new Harness();
beforeAll(async () => {
  await h.start();
  await h.log.createTopic('lines', 2);
});
afterAll(async () => {
  await h.dispose();
});

/** Runs kcat asynchronously: the listener lives in this process's event loop. */
function kcat(args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'kcat',
      ['-b', h.bootstrap, ...args],
      { encoding: 'utf8', timeout: 60_000 },
      (err, out, errOut) =>
        err ? reject(new Error(`kcat ${args.join(' ')}: ${errOut}`)) : resolve(out),
    );
    child.stdin!.end(input ?? '');
  });
}

describe('kcat against the Kafka listener', () => {
  it('lists metadata, produces, consumes and consumes in a group', async () => {
    const meta = await kcat(['-L']);
    expect(meta).toContain(`broker ${h.listener.nodeId} at ${h.bootstrap} (controller)`);
    expect(meta).toContain('topic "lines" with 2 partitions');

    await kcat(['-P', '-t', 'lines', '-K:'], 'a:one\nb:two\nc:three\n');
    const stored = await h.records('lines');
    expect(stored.map((r) => `${r.key}=${r.value}`).sort()).toEqual(['a=one', 'b=two', 'c=three']);

    const consumed = await kcat(['-C', '-t', 'lines', '-e', '-f', '%k=%s@%p/%o\\n']);
    expect(consumed.trim().split('\n').sort()).toEqual(
      stored.map((r) => `${r.key}=${r.value}@${r.partition}/${r.offset}`).sort(),
    );

    const group = await kcat([
      '-C',
      '-G',
      'kcat-group',
      'lines',
      '-e',
      '-f',
      '%k=%s\\n',
      '-X',
      'auto.offset.reset=earliest',
    ]);
    expect(group.trim().split('\n').sort()).toEqual(['a=one', 'b=two', 'c=three']);
    expect(h.warnings).toEqual([]);
  }, 120_000);
});
