import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localTime, parseTime, timeTooltip } from './time-format.js';

describe('one time format', () => {
  const zone = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'Europe/Paris';
  });
  afterAll(() => {
    process.env.TZ = zone;
  });

  it('shows local time to the millisecond, with epoch and UTC instant in the tooltip', () => {
    const ms = Date.UTC(2026, 11, 7, 17, 52, 3, 125);
    expect(localTime(ms)).toBe('2026-12-07 18:52:03.125');
    expect(timeTooltip(ms)).toBe(`epoch ms ${ms} · 2026-12-07T17:52:03.125Z (UTC)`);
  });

  it('shows no time as a dash and times beyond Date as their number', () => {
    expect(localTime(-1)).toBe('—');
    expect(localTime(Number.MAX_SAFE_INTEGER)).toBe(String(Number.MAX_SAFE_INTEGER));
  });

  it('reads epoch ms, local date-times and zoned ISO instants', () => {
    expect(parseTime('1700000000000')).toBe(1_700_000_000_000);
    expect(parseTime('2026-12-07 18:52:03.125')).toBe(Date.UTC(2026, 11, 7, 17, 52, 3, 125));
    expect(parseTime('2026-12-07T17:52:03Z')).toBe(Date.UTC(2026, 11, 7, 17, 52, 3));
    expect(parseTime('')).toBeNull();
    expect(parseTime('yesterday')).toBeNull();
  });
});
