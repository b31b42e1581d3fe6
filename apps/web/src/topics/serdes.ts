// Which serdes a topic's records use, as far as the document knows: the serdes of the node that
// writes (sink, generator) or reads (source) it, so producing and reading need no guessing.
import type { BuiltinSerdeName, TopologyDocument } from '@streamwright/topology-model';

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
