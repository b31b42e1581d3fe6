// Zod schemas of the request inputs shared by several procedures.
import { z } from 'zod';
import { parseHeadersField, type HeaderJson } from '../service/headers-json.js';
import { serdeSchema, topicNameSchema } from '@streamwright/topology-model';
import { intInRange, showValue } from '../input-issues.js';

/** Kafka's legal topic names, the refused name quoted in the message. */
export const topicInput = z
  .string({
    error: (issue) =>
      issue.input === undefined
        ? 'is required (a topic name)'
        : `must be a topic name (text), got ${showValue(issue.input)}`,
  })
  .superRefine((name, ctx) => {
    const checked = topicNameSchema.safeParse(name);
    const first = checked.success ? null : checked.error.issues[0]!.message;
    // Kafka's Topic.validate refuses these two as well
    const message =
      first ?? (name === '.' || name === '..' ? `"." and ".." are not topic names` : null);
    if (message !== null)
      ctx.addIssue({
        code: 'custom',
        message: name === '' ? message : `${message}, got ${showValue(name)}`,
      });
  });
export const partitionInput = intInRange(0, Number.MAX_SAFE_INTEGER);
export const offsetInput = intInRange(0, Number.MAX_SAFE_INTEGER);

/** The most partitions `topics.create` makes one topic with. */
export const MAX_PARTITIONS = 1024;

/** A topic config value: Kafka's configs are text, numbers or booleans. */
const topicConfigValue = z.union([z.string(), z.number(), z.boolean()], {
  error: (issue) =>
    `a topic config value is text, a number or true/false, got ${showValue(issue.input)}`,
});

/** `topics.create`, also checked by the CLI when it works on a data dir directly. */
export const createTopicInput = z.object({
  name: topicInput,
  partitions: intInRange(1, MAX_PARTITIONS).default(1),
  config: z
    .record(z.string(), topicConfigValue, {
      error: (issue) =>
        `must be an object of topic configs ({"retention.ms": 86400000}), got ${showValue(issue.input)}`,
    })
    .default({}),
});
export const keySerdeInput = serdeSchema.default('string');
export const valueSerdeInput = serdeSchema.default('json');
/**
 * Record headers: the ordered array [{"key", "value"}] (value text, {"base64": …} or null;
 * repeated keys and order kept) or the older object of strings, read into the engine's headers.
 */
export const headersInput = z
  .custom<HeaderJson[] | Record<string, string>>()
  .transform((value, ctx) => {
    try {
      return parseHeadersField(value);
    } catch (error) {
      ctx.addIssue({
        code: 'custom',
        message: error instanceof Error ? error.message : String(error),
      });
      return z.NEVER;
    }
  });

/**
 * How a windowed key is laid out, for reading it back: Kafka's TimeWindowedSerde (key, start; the
 * end from the window size), SessionWindowedSerde (key, end, start), or a window store's changelog
 * (WindowKeySchema: key, start, sequence number).
 */
export const keyWindowInput = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('time'), sizeMs: intInRange(1, Number.MAX_SAFE_INTEGER) }).strict(),
    z.object({ kind: z.literal('session') }).strict(),
    z
      .object({ kind: z.literal('windowStore'), sizeMs: intInRange(1, Number.MAX_SAFE_INTEGER) })
      .strict(),
  ])
  .optional();

/** A consumer group id: any non-empty text, as in Kafka (up to a sane length). */
export const groupInput = z.string().min(1).max(255);

/** A topology arrives as any JSON: its validation errors are a result, not a bad request. */
export const topologyInput = z.object({ topology: z.unknown() });

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Record bytes travel as base64 text (JSON has no bytes); null stays null. */
export const bytesInput = z
  .string()
  .regex(BASE64, 'expected base64 text')
  .transform((text) => new Uint8Array(Buffer.from(text, 'base64')))
  .nullable();

export function toBase64(bytes: Uint8Array | null): string | null {
  if (bytes === null) return null;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
