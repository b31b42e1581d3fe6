// Which serdes a topic's records use, as far as the document knows: the serdes of the node that
// writes (sink, generator) or reads (source) it, so producing and reading need no guessing.
import type { BuiltinSerdeName, Plan, TopologyDocument } from '@streamwright/topology-model';

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

/** `name: value` lines → headers; blank lines ignored. Null when a line has no colon. */
export function parseHeaders(text: string): Record<string, string> | null {
  const headers: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const at = line.indexOf(':');
    if (at <= 0) return null;
    headers[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return headers;
}
