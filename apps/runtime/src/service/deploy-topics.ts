// Creating the declared topics on deploy.
import type { Backend } from '@streamwright/engine';
import type { Topology } from '@streamwright/topology-model';
import type { Logger } from 'pino';

/**
 * Kafka Streams refuses to start when a source topic is missing; Streamwright creates the
 * declared topics on deploy instead (docs/API.md), leaving existing ones as they are. Returns a
 * note for each declared topic whose existing partition count differs (the app runs with the
 * existing count): the deployer is told, not only the log.
 */
export async function createMissingTopics(
  backend: Backend,
  topology: Topology,
  logger: Logger,
): Promise<string[]> {
  const notes: string[] = [];
  const existing = new Map((await backend.listTopics()).map((t) => [t.name, t]));
  const missing = topology.topics.filter((t) => !existing.has(t.name));
  for (const topic of topology.topics) {
    const found = existing.get(topic.name);
    if (found && found.partitions !== topic.partitions) {
      logger.warn(
        { topic: topic.name, declared: topic.partitions, actual: found.partitions },
        'a declared topic exists with another partition count; it is left as it is',
      );
      notes.push(
        `topic "${topic.name}" already exists with ${found.partitions} partition${found.partitions === 1 ? '' : 's'}, not the ${topic.partitions} declared: an existing topic keeps its partition count (delete it to recreate it)`,
      );
    }
  }
  if (missing.length === 0) return notes;
  await backend.createTopics(
    missing.map((t) => ({
      name: t.name,
      partitions: t.partitions,
      config: Object.fromEntries(Object.entries(t.config).map(([k, v]) => [k, String(v)])),
    })),
  );
  logger.info({ topics: missing.map((t) => t.name) }, 'created topics');
  return notes;
}
