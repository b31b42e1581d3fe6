import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inputIssues, inputMessage, intInRange, showValue } from './input-issues.js';

const issuesOf = (schema: z.ZodType, input: unknown) => {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('expected a refusal');
  return inputIssues(result.error, input);
};

describe('input issues', () => {
  it("rewords zod's stock messages with the value sent", () => {
    const schema = z
      .object({
        key: z.string(),
        count: z.number().min(1),
        tags: z.array(z.string()).max(1),
        mode: z.enum(['a', 'b']),
        name: z.string().min(2),
      })
      .strict();
    expect(
      issuesOf(schema, { key: 5, count: 0, tags: ['x', 'y'], mode: 'c', name: 'x', more: 1 }),
    ).toEqual([
      { path: 'key', message: 'must be text, got 5' },
      { path: 'count', message: 'must be ≥ 1, got 0' },
      { path: 'tags', message: 'must have at most 1 item, got 2' },
      { path: 'mode', message: 'must be one of "a", "b", got "c"' },
      { path: 'name', message: 'must have at least 2 characters, got "x"' },
      { path: 'input', message: 'has unknown field "more"' },
    ]);
    expect(issuesOf(schema, {})[0]).toEqual({ path: 'key', message: 'is required (text)' });
  });

  it('keeps the messages a schema gives itself', () => {
    const schema = z.object({ topic: z.string().min(1, 'topic name is empty') });
    expect(issuesOf(schema, { topic: '' })).toEqual([
      { path: 'topic', message: 'topic name is empty' },
    ]);
  });

  it('names both ends of an integer range and the value', () => {
    const schema = z.object({ limit: intInRange(1, 500) });
    for (const limit of [0, 501, 2.5, '3', null]) {
      expect(inputMessage(issuesOf(schema, { limit }))).toBe(
        `Invalid input: limit: must be an integer from 1 to 500, got ${JSON.stringify(limit)}`,
      );
    }
    expect(issuesOf(schema, {})[0]?.message).toBe('is required (an integer from 1 to 500)');
    const open = intInRange(0, Number.MAX_SAFE_INTEGER);
    expect(issuesOf(open, -1)[0]?.message).toBe('must be an integer ≥ 0, got -1');
  });

  it('cuts long values short', () => {
    expect(showValue('x'.repeat(100))).toHaveLength(58);
    expect(showValue(undefined)).toBe('nothing');
  });
});
