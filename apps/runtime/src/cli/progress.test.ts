import { describe, expect, it } from 'vitest';
import { Progress } from './progress.js';

function stream(isTTY: boolean) {
  const writes: string[] = [];
  return { isTTY, writes, write: (text: string) => (writes.push(text), true) };
}

describe('Progress', () => {
  it('redraws one counter line on a terminal, at most every interval, and clears it', () => {
    let now = 0;
    const out = stream(true);
    const progress = new Progress(out, 'produced', () => now, 200);
    now = 1000;
    progress.update(1500);
    now = 1100;
    progress.update(1600); // too soon: not drawn
    now = 2000;
    progress.update(4000);
    progress.done();
    expect(out.writes).toEqual([
      '\r\x1b[Kproduced 1,500 records (1,500/s)',
      '\r\x1b[Kproduced 4,000 records (2,000/s)',
      '\r\x1b[K',
    ]);
  });

  it('writes nothing when stderr is not a terminal', () => {
    let now = 0;
    const out = stream(false);
    const progress = new Progress(out, 'consumed', () => (now += 1000));
    progress.update(10);
    progress.update(20);
    progress.done();
    expect(out.writes).toEqual([]);
  });
});
