// Topics as clients name them: by name, or (Produce v13+, Fetch v13+, Metadata by id) by Kafka
// topic id. The log's system topics (`__consumer_offsets`, `__transaction_state`) are not Kafka's
// formats and are not served.
import type { Log, TopicDescription } from '@streamwright/log';
import { kafkaTopicId, ZERO_TOPIC_ID } from '../topic-ids.js';

export function isServedTopic(name: string): boolean {
  return name !== '__consumer_offsets' && name !== '__transaction_state';
}

export function describeServed(log: Log, name: string): TopicDescription | null {
  if (!isServedTopic(name)) return null;
  return log.describeTopic(name);
}

/** The topic's name for a request that carries a name or an id; null when unknown. */
export function topicName(log: Log, name: string | null, topicId: string): string | null {
  if (topicId !== ZERO_TOPIC_ID && (name === null || name === '')) {
    for (const t of log.listTopics()) if (kafkaTopicId(t.id) === topicId) return t.name;
    return null;
  }
  if (name === null || !isServedTopic(name) || !log.hasTopic(name)) return null;
  return name;
}

/** The Kafka topic id of a topic the log has. */
export function topicIdOf(log: Log, name: string): string {
  const d = log.describeTopic(name);
  return d ? kafkaTopicId(d.id) : ZERO_TOPIC_ID;
}
