import { describe, expect, it } from 'vitest';
import { PunctuationQueue } from './punctuation.js';

// Kafka Streams' PunctuationQueueTest, ported: the same schedule, times and expected counts.
describe('punctuation queue (Kafka Streams PunctuationQueueTest)', () => {
  const run = (q: PunctuationQueue, now: number) =>
    q.mayPunctuate(now, (s, at) => s.punctuator(at));

  it('testPunctuationInterval: fires at each interval and skips missed ones', () => {
    const q = new PunctuationQueue();
    const fired: number[] = [];
    q.schedule('node', 0, 100, (ts) => fired.push(ts));
    const now = -100;
    const expectations: [number, number][] = [
      [now, 0],
      [now + 99, 0],
      [now + 100, 1],
      [now + 199, 1],
      [now + 200, 2],
      [now + 1001, 3],
      [now + 1002, 3],
      [now + 1100, 4],
    ];
    for (const [at, count] of expectations) {
      run(q, at);
      expect(fired.length, `at ${at}`).toBe(count);
    }
    // The punctuator gets the current time, not the due time.
    expect(fired).toEqual([0, 100, 901, 1000]);
  });

  it('testPunctuationIntervalCancelFromPunctuator: a punctuator may cancel its own schedule', () => {
    const q = new PunctuationQueue();
    let fired = 0;
    const cancellable = q.schedule('node', 0, 100, () => {
      fired++;
      cancellable.cancel();
    });
    run(q, 0);
    run(q, 100);
    run(q, 200);
    expect(fired).toBe(1);
    expect(q.size).toBe(0);
  });

  it('runs several due schedules in due order', () => {
    const q = new PunctuationQueue();
    const order: string[] = [];
    q.schedule('a', 30, 30, () => order.push('a'));
    q.schedule('b', 10, 10, () => order.push('b'));
    expect(run(q, 30)).toBe(true);
    expect(order).toEqual(['b', 'a']);
    expect(run(q, 31)).toBe(false);
  });
});
