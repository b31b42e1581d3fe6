// The seed's KStream vs KTable documents as test applications (no vitest here: child processes
// of the Kafka tests load it too).
import { readFileSync } from 'node:fs';
import { validateTopology, type Topology } from '@streamwright/topology-model';

/**
 * One of examples/kstream-vs-ktable's documents, as application `appId` reading `input` and
 * writing `output`; no record cache (every update is emitted, as TopologyTestDriver shows it);
 * `config` adds application settings (num.stream.threads).
 */
export function seedTopology(
  file: 'stream-sum.topology.json' | 'table-sum.topology.json',
  appId: string,
  input: string,
  output: string,
  partitions = 1,
  config: Record<string, unknown> = {},
): Topology {
  const text = readFileSync(
    new URL(`../../../../examples/kstream-vs-ktable/${file}`, import.meta.url),
    'utf8',
  );
  const doc = JSON.parse(text) as {
    application: { id: string; config: Record<string, unknown> };
    topics: { name: string; partitions: number }[];
    nodes: { kind: string; config: Record<string, unknown> }[];
  };
  const [source, sink] = [doc.topics[0]!.name, doc.topics[1]!.name];
  doc.application = {
    id: appId,
    config: { 'commit.interval.ms': 100, 'statestore.cache.max.bytes': 0, ...config },
  };
  doc.topics = [
    { name: input, partitions },
    { name: output, partitions },
  ];
  for (const n of doc.nodes) {
    if (n.config.topic === source) n.config.topic = input;
    if (n.config.topic === sink) n.config.topic = output;
  }
  const result = validateTopology(doc);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.topology;
}
