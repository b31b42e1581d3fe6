// Which serdes a topic's records use, as far as the document knows: the serdes of the node that
// writes (sink, generator) or reads (source) it, so producing and reading need no guessing.
import type { BuiltinSerdeName, Plan, TopologyDocument } from '@streamwright/topology-model';
import type { ReadRecord } from '../api/types.js';

export const SERDES: readonly BuiltinSerdeName[] = ['string', 'json', 'bytes', 'long'];

export interface TopicSerdes {
  keySerde: BuiltinSerdeName;
  valueSerde: BuiltinSerdeName;
}

const isSerde = (v: unknown): v is BuiltinSerdeName =>
  typeof v === 'string' && (SERDES as readonly string[]).includes(v);

export function serdesFor(nodes: TopologyDocument['nodes'], topic: string | null): TopicSerdes {
  const node =
    nodes.find(
      (n) => n.config.topic === topic && (n.kind === 'source' || n.kind === 'generator'),
    ) ?? nodes.find((n) => n.config.topic === topic && n.kind === 'sink');
  return {
    keySerde: isSerde(node?.config.keySerde) ? node.config.keySerde : 'string',
    valueSerde: isSerde(node?.config.valueSerde) ? node.config.valueSerde : 'json',
  };
}

/**
 * How a topic's windowed keys are laid out: Kafka's TimeWindowedSerde (key, start), its
 * SessionWindowedSerde (key, end, start), or a window store's changelog (key, start, seqnum).
 */
export type KeyWindow =
  { kind: 'time'; sizeMs: number } | { kind: 'session' } | { kind: 'windowStore'; sizeMs: number };

export interface ReadSerdes extends TopicSerdes {
  /** Absent: keys are plain. */
  keyWindow?: KeyWindow;
}

/**
 * The serdes to read a topic with: a sink's windowed-key option, or the layout of a window or
 * session store's changelog (from the plan), so windowed keys show as `{key, start, end}`.
 */
export function readSerdesFor(
  nodes: TopologyDocument['nodes'],
  plan: Plan | null,
  topic: string,
): ReadSerdes {
  const store = plan?.stores.find((s) => s.changelogTopic === topic);
  if (store) {
    const serdes = {
      keySerde: isSerde(store.keySerde) ? store.keySerde : 'string',
      valueSerde: isSerde(store.valueSerde) ? store.valueSerde : 'json',
    } satisfies TopicSerdes;
    const sizeMs = store.windowStore?.sizeMs ?? store.windowSizeMs;
    if (store.type === 'session') return { ...serdes, keyWindow: { kind: 'session' } };
    if (store.type === 'window' && sizeMs !== undefined)
      return { ...serdes, keyWindow: { kind: 'windowStore', sizeMs } };
    return serdes;
  }
  const serdes = serdesFor(nodes, topic);
  const sink = nodes.find((n) => n.kind === 'sink' && n.config.topic === topic);
  const windowed = sink?.config.windowedKey;
  const size = sink?.config.windowSizeMs;
  if (windowed === 'session') return { ...serdes, keyWindow: { kind: 'session' } };
  if (windowed === 'time' && typeof size === 'number')
    return { ...serdes, keyWindow: { kind: 'time', sizeMs: size } };
  return serdes;
}

/** How a decoded key or value is shown in a table cell. */
export function showValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** A header as the runtime's API carries it: text, {base64} for bytes that are not UTF-8, or null. */
export type HeaderEntry = ReadRecord['headers'][number];

/**
 * `name: value` lines → headers in order, a repeated name kept (Kafka headers may repeat); blank
 * lines ignored. Read as the records table shows them: `name: null` is a null value and
 * `name: base64 AAEC…` bytes (for values that are not text); anything else is text, written as
 * UTF-8. An error naming the line for a line without a name or with bad base64.
 */
export function parseHeaders(text: string): HeaderEntry[] | { error: string } {
  const headers: HeaderEntry[] = [];
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const at = line.indexOf(':');
    if (at <= 0) return { error: `headers line ${i + 1}: "name: value" expected` };
    const key = line.slice(0, at).trim();
    const value = line.slice(at + 1).trim();
    if (value === 'null') headers.push({ key, value: null });
    else if (value.startsWith('base64 ')) {
      const b64 = value.slice('base64 '.length).trim();
      if (!BASE64.test(b64) || b64.length % 4 !== 0)
        return { error: `headers line ${i + 1}: "${b64}" is not base64` };
      headers.push({ key, value: { base64: b64 } });
    } else headers.push({ key, value });
  }
  return headers;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** One header as shown: `name: text`, `name: null`, or `name: base64 …` for bytes that are not text. */
export function showHeader({ key, value }: HeaderEntry): string {
  return `${key}: ${showHeaderValue(value)}`;
}

/** A header's value as shown: its text, `null`, or `base64 …` for bytes that are not text. */
export function showHeaderValue(value: HeaderEntry['value']): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return value;
  return `base64 ${value.base64}`;
}
