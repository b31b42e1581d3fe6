import { describe, expect, it } from 'vitest';
import { emptyDocument } from '../model/new-document.js';
import { parseHeaders, serdesFor, showValue } from './serdes.js';

describe('topic serdes and record display', () => {
  it('takes serdes from the node that reads or writes the topic', () => {
    const doc = {
      ...emptyDocument(),
      nodes: [
        {
          id: 'src',
          kind: 'source',
          config: { topic: 'in', keySerde: 'long', valueSerde: 'string' },
        },
        {
          id: 'out',
          kind: 'sink',
          config: { topic: 'counts', keySerde: 'string', valueSerde: 'long' },
        },
      ],
    };
    expect(serdesFor(doc.nodes, 'in')).toEqual({ keySerde: 'long', valueSerde: 'string' });
    expect(serdesFor(doc.nodes, 'counts')).toEqual({ keySerde: 'string', valueSerde: 'long' });
    expect(serdesFor(doc.nodes, 'other')).toEqual({ keySerde: 'string', valueSerde: 'json' });
  });

  it('parses header lines and refuses a line without a name', () => {
    expect(parseHeaders('source: ui\n\ntrace-id: a:b')).toEqual({
      source: 'ui',
      'trace-id': 'a:b',
    });
    expect(parseHeaders(': nameless')).toBeNull();
  });

  it('shows JSON values as JSON and strings as they are', () => {
    expect(showValue({ user: 'u1', total: 40 })).toBe('{"user":"u1","total":40}');
    expect(showValue('hello')).toBe('hello');
    expect(showValue(null)).toBe('null');
  });
});
