import { describe, expect, it } from 'vitest';
import { paletteGroups } from './kinds.js';

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
});
