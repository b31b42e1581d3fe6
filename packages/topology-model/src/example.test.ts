import { describe, expect, it } from 'vitest';
import {
  compileExpression,
  exampleTopology,
  validateTopology,
  type NodeConfigOf,
} from './index.js';

describe('exampleTopology', () => {
  it('validates', () => {
    expect(validateTopology(exampleTopology())).toMatchObject({ ok: true });
  });

  it('generates orders keyed by user whose large ones the filter and mapValues turn into flagged records', () => {
    const result = validateTopology(exampleTopology());
    if (!result.ok) throw new Error('example must validate');
    const config = <K extends 'generator' | 'filter' | 'mapValues'>(
      id: string,
      _kind: K,
    ): NodeConfigOf<K> => result.topology.nodes.find((n) => n.id === id)?.config as NodeConfigOf<K>;
    const generator = config('generator', 'generator');
    const key = compileExpression(generator.key ?? '', 'generatorKey');
    const value = compileExpression(generator.value, 'generatorValue');
    const filter = compileExpression(
      config('filterLarge', 'filter').expression as string,
      'filter',
    );
    const mark = compileExpression(
      config('markBig', 'mapValues').expression as string,
      'mapValues',
    );

    const out: unknown[] = [];
    for (let seq = 0; seq < 8; seq++) {
      const record = {
        key: key.evaluate({ seq, now: 0 }),
        value: value.evaluate({ seq, now: 0 }),
        timestamp: 0,
        headers: {},
      };
      expect(record.key).toBe((record.value as { user: string }).user);
      if (filter.evaluate(record)) out.push(mark.evaluate(record));
    }
    // amount = (seq * 37) % 250: 0, 37, 74, 111, 148, 185, 222, 9
    expect(out).toEqual([
      { user: 'u3', amount: 111, big: false },
      { user: 'u4', amount: 148, big: false },
      { user: 'u5', amount: 185, big: false },
      { user: 'u6', amount: 222, big: true },
    ]);
  });
});
