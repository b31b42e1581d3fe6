import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { prettyDestination, prettyLine, resolveLogFormat } from './log-format.js';

describe('log format', () => {
  it('auto is readable at a terminal and JSON in a pipe or file; json and pretty force one', () => {
    expect(resolveLogFormat(undefined, true)).toBe('pretty');
    expect(resolveLogFormat('auto', true)).toBe('pretty');
    expect(resolveLogFormat('auto', false)).toBe('json');
    expect(resolveLogFormat('json', true)).toBe('json');
    expect(resolveLogFormat('pretty', false)).toBe('pretty');
    expect(() => resolveLogFormat('yaml', true)).toThrow(
      '--log-format: expected auto, json or pretty, got "yaml"',
    );
  });

  it("writes pino's entries as one line each: time, level, message, then the fields", () => {
    const lines: string[] = [];
    const logger = pino(
      { name: 'streamwright' },
      prettyDestination((t) => lines.push(t)),
    );
    logger.info({ signal: 'SIGINT', topics: ['a', 'b'] }, 'shutting down');
    logger.warn({ note: 'two words' }, 'slow');
    expect(lines[0]).toMatch(
      /^\d\d:\d\d:\d\d INFO {2}shutting down signal=SIGINT topics=\["a","b"\]\n$/,
    );
    expect(lines[1]).toMatch(/^\d\d:\d\d:\d\d WARN {2}slow note="two words"\n$/);
  });

  it("shows an error's message on the line and its stack indented below", () => {
    const lines: string[] = [];
    const logger = pino(
      {},
      prettyDestination((t) => lines.push(t)),
    );
    logger.error({ err: new Error('disk full') }, 'shutdown failed');
    expect(lines[0]).toMatch(
      /^\d\d:\d\d:\d\d ERROR shutdown failed err="disk full"\n {4}Error: disk full\n {8}at /,
    );
  });

  it('passes a line that is not JSON through unchanged', () => {
    expect(prettyLine('plain text')).toBe('plain text\n');
  });
});
