// Zod schemas of the request inputs shared by several procedures.
import { z } from 'zod';
import { serdeSchema, topicNameSchema } from '@streamwright/topology-model';

export const topicInput = topicNameSchema;
export const partitionInput = z.number().int().min(0);
export const offsetInput = z.number().int().min(0);
export const keySerdeInput = serdeSchema.default('string');
export const valueSerdeInput = serdeSchema.default('json');
export const headersInput = z.record(z.string(), z.string());

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
