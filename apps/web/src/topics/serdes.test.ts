import { describe, expect, it } from 'vitest';
import { emptyDocument } from '../model/new-document.js';
import { planTopology, validateTopology } from '@streamwright/topology-model';
import {
  parseHeaders,
  readSerdesFor,
  serdesFor,
  showHeader,
  showValue,
  type HeaderEntry,
} from './serdes.js';

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

  it('reads windowed keys by the layout of the sink or the store changelog that holds them', () => {
    const doc = {
      ...emptyDocument(),
      application: { id: 'clicks', config: {} },
      topics: [
        { name: 'clicks', partitions: 1 },
        { name: 'counts', partitions: 1 },
      ],
      nodes: [
        { id: 'src', kind: 'source', config: { topic: 'clicks' } },
        { id: 'g', kind: 'groupByKey', config: {} },
        {
          id: 'w',
          kind: 'windowedBy',
          config: { window: { type: 'tumbling', sizeMs: 10_000 } },
        },
        { id: 'count', kind: 'windowedCount', config: { store: 'per-10s' } },
        { id: 'sw', kind: 'windowedBy', config: { window: { type: 'session', gapMs: 5000 } } },
        { id: 'visits', kind: 'windowedCount', config: { store: 'visits' } },
        { id: 'ts', kind: 'toStream', config: {} },
        {
          id: 'out',
          kind: 'sink',
          config: {
            topic: 'counts',
            valueSerde: 'long',
            windowedKey: 'time',
            windowSizeMs: 10_000,
          },
        },
      ],
      edges: [
        { from: 'src', to: 'g' },
        { from: 'g', to: 'w' },
        { from: 'w', to: 'count' },
        { from: 'g', to: 'sw' },
        { from: 'sw', to: 'visits' },
        { from: 'count', to: 'ts' },
        { from: 'ts', to: 'out' },
      ],
    };
    const valid = validateTopology(doc);
    if (!valid.ok) throw new Error(JSON.stringify(valid.errors));
    const plan = planTopology(valid.topology);
    expect(readSerdesFor(doc.nodes, plan, 'counts')).toEqual({
      keySerde: 'string',
      valueSerde: 'long',
      keyWindow: { kind: 'time', sizeMs: 10_000 },
    });
    expect(readSerdesFor(doc.nodes, plan, 'clicks-per-10s-changelog')).toMatchObject({
      keyWindow: { kind: 'windowStore', sizeMs: 10_000 },
    });
    expect(readSerdesFor(doc.nodes, plan, 'clicks-visits-changelog')).toMatchObject({
      keyWindow: { kind: 'session' },
    });
    expect(readSerdesFor(doc.nodes, plan, 'clicks')).not.toHaveProperty('keyWindow');
  });

  it('parses header lines and refuses a line without a name', () => {
    expect(parseHeaders('source: ui\n\ntrace-id: a:b\nsource: cli')).toEqual([
      { key: 'source', value: 'ui' },
      { key: 'trace-id', value: 'a:b' },
      { key: 'source', value: 'cli' },
    ]);
    expect(parseHeaders('ok: 1\n: nameless')).toEqual({
      error: 'headers line 2: "name: value" expected',
    });
  });

  it('reads header lines as the table shows them: null, base64 bytes, text', () => {
    const parsed = parseHeaders('bin: base64 /wD+AQ==\nnone: null\ntext: plain');
    expect(parsed).toEqual([
      { key: 'bin', value: { base64: '/wD+AQ==' } },
      { key: 'none', value: null },
      { key: 'text', value: 'plain' },
    ]);
    // shown, then typed back in: the same headers
    const shown = (parsed as HeaderEntry[]).map(showHeader).join('\n');
    expect(parseHeaders(shown)).toEqual(parsed);
    expect(parseHeaders('bin: base64 not*base64')).toEqual({
      error: 'headers line 1: "not*base64" is not base64',
    });
  });

  it('shows headers as text, null, or base64 marked as such', () => {
    expect(showHeader({ key: 'trace', value: 'abc' })).toBe('trace: abc');
    expect(showHeader({ key: 'none', value: null })).toBe('none: null');
    expect(showHeader({ key: 'sig', value: { base64: '/wA=' } })).toBe('sig: base64 /wA=');
  });

  it('shows JSON values as JSON and strings as they are', () => {
    expect(showValue({ user: 'u1', total: 40 })).toBe('{"user":"u1","total":40}');
    expect(showValue('hello')).toBe('hello');
    expect(showValue(null)).toBe('null');
  });
});
