import { describe, expect, it } from 'vitest';
import { nodeSummary, paletteGroups } from './kinds.js';

describe('palette groups', () => {
  it('list at least one kind in every group (the palette has no empty-group text)', () => {
    for (const group of paletteGroups())
      expect(group.kinds.length, `palette group ${group.category}`).toBeGreaterThan(0);
  });

  it('file the window, suppress and join kinds under Windows and Joins', () => {
    const kindsOf = (category: string) =>
      paletteGroups()
        .find((g) => g.category === category)!
        .kinds.map((k) => k.kind);
    expect(kindsOf('windows')).toEqual(
      expect.arrayContaining([
        'windowedBy',
        'windowedCount',
        'windowedReduce',
        'windowedAggregate',
        'suppress',
      ]),
    );
    expect(kindsOf('joins')).toEqual(
      expect.arrayContaining([
        'streamStreamJoin',
        'streamTableJoin',
        'streamGlobalTableJoin',
        'tableTableJoin',
      ]),
    );
  });

  it('files KTable#transformValues with the custom processors, summarized by its transformer', () => {
    const custom = paletteGroups().find((g) => g.category === 'custom')!;
    expect(custom.kinds.map((k) => k.kind)).toEqual([
      'transformValues',
      'process',
      'processValues',
    ]);
    expect(nodeSummary('transformValues', { transformer: 'maskCard', store: 'masked' })).toBe(
      'maskCard · store masked',
    );
    expect(nodeSummary('transformValues', {})).toBe('no transformer yet');
    expect(
      nodeSummary('cogroup', {
        window: { type: 'session', gapMs: 300, graceMs: 100 },
        store: 'totals',
      }),
    ).toBe('session gap 300 ms · grace 100 ms · store totals');
    expect(nodeSummary('cogroup', { store: 'totals' })).toBe('store totals');
    expect(
      nodeSummary('windowedBy', { window: { type: 'hopping', sizeMs: 1000, advanceMs: 500 } }),
    ).toBe('hopping 1000 ms by 500 ms');
  });
});
