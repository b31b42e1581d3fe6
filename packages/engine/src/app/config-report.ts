// What of the application's Kafka Streams config is not honoured on this backend, as notes: the
// warnings of reading it (unknown keys, keys Kafka Streams overrides, Kafka Streams configs not
// implemented; topology-model's resolveStreamsConfig), then every client setting that neither
// the engine nor the backend applies, and `topic.` defaults the backend does not apply. The
// application logs them at WARN when it starts; the runtime answers a deploy with them.
import {
  CLIENT_WORDS,
  configPath,
  type ClientSetting,
  type ConfigNote,
  type ResolvedStreamsConfig,
  type StreamsClient,
} from '@streamwright/topology-model';
import type { Backend } from '../backend-spi.js';
import { configSupportByKind } from '../backends/config-support.js';

/** Consumer settings of group membership: a restore or global consumer is in no group. */
const GROUP_KEYS = new Set([
  'session.timeout.ms',
  'heartbeat.interval.ms',
  'max.poll.interval.ms',
  'group.instance.id',
  'group.remote.assignor',
  'group.protocol',
  'auto.commit.interval.ms',
]);

/** Whether the engine itself applies a client setting, whatever the backend. */
function engineApplies(client: StreamsClient, key: string): boolean {
  switch (client) {
    case 'mainConsumer':
      return key === 'max.poll.records' || key === 'isolation.level' || key === 'auto.offset.reset';
    case 'producer':
      // Every produce call carries it (record collectors), on both backends.
      return key === 'compression.type';
    case 'restoreConsumer':
    case 'globalConsumer':
      // Kafka Streams forces auto.offset.reset=none on them; group settings do nothing there.
      if (key === 'auto.offset.reset' || GROUP_KEYS.has(key)) return true;
      return client === 'restoreConsumer' && key === 'isolation.level';
    default:
      return false;
  }
}

type BackendSupport = Pick<Backend, 'kind' | 'appliesClientConfig' | 'appliesTopicConfig'>;

export function configNotes(streams: ResolvedStreamsConfig, backend: BackendSupport): ConfigNote[] {
  const notes = streams.notes.filter((n) => n.severity === 'warning');
  // One note per application-config key, naming every client that does not apply it.
  const unapplied = new Map<string, { key: string; clients: StreamsClient[] }>();
  for (const [client, settings] of Object.entries(streams.clients) as [
    StreamsClient,
    Record<string, ClientSetting>,
  ][])
    for (const [key, setting] of Object.entries(settings)) {
      if (engineApplies(client, key)) continue;
      if (backend.appliesClientConfig?.(client, key, setting)) continue;
      let entry = unapplied.get(setting.source);
      if (!entry) unapplied.set(setting.source, (entry = { key, clients: [] }));
      entry.clients.push(client);
    }
  for (const [source, { key, clients }] of unapplied) {
    const words = clients.map((c) => CLIENT_WORDS[c]);
    const who =
      words.length === 1
        ? `the ${words[0]}`
        : `the ${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
    notes.push({
      key: source,
      path: configPath(source),
      severity: 'warning',
      kind: 'unsupported',
      message: `${key} of ${who} is not implemented by the ${backend.kind} backend: ${source} is ignored`,
    });
  }
  if (backend.appliesTopicConfig)
    for (const key of Object.keys(streams.topicDefaults))
      if (!backend.appliesTopicConfig(key))
        notes.push({
          key: `topic.${key}`,
          path: configPath(`topic.${key}`),
          severity: 'warning',
          kind: 'unsupported',
          message: `the ${backend.kind} backend does not implement the topic config ${key}: internal topics are created without it`,
        });
  return notes;
}

/**
 * The notes an application config gets on a backend of this kind, without one (for
 * `streamwright validate --backend`): what the embedded and the Kafka backend apply is static.
 */
export function configNotesFor(
  kind: Backend['kind'],
  streams: ResolvedStreamsConfig,
): ConfigNote[] {
  return configNotes(streams, configSupportByKind[kind]);
}

/** A note as a log line's fields. */
export function noteFields(note: ConfigNote): { config: string; path: string; kind: string } {
  return { config: note.key, path: note.path, kind: note.kind };
}
