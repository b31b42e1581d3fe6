// Topic ids: the log names each topic with a random UUID (8-4-4-4-12 hex); Kafka's wire format
// carries the same 16 bytes and clients print them as Kafka's Uuid.toString() (22 characters of
// URL-safe base64 without padding), which is the form @streamwright/kafka-protocol uses.

export const ZERO_TOPIC_ID = 'AAAAAAAAAAAAAAAAAAAAAA';

/** The log's UUID string → Kafka's Uuid string. */
export function kafkaTopicId(uuid: string): string {
  const hex = uuid.replace(/-/g, '');
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new Error(`not a UUID: ${JSON.stringify(uuid)}`);
  return Buffer.from(hex, 'hex').toString('base64url');
}
