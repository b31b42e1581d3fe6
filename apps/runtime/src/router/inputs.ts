// Zod schemas of the request inputs shared by several procedures.
import { z } from 'zod';
import { serdeSchema, topicNameSchema } from '@streamwright/topology-model';

export const topicInput = topicNameSchema;
export const partitionInput = z.number().int().min(0);
export const keySerdeInput = serdeSchema.default('string');
export const valueSerdeInput = serdeSchema.default('json');

/** A topology arrives as any JSON: its validation errors are a result, not a bad request. */
export const topologyInput = z.object({ topology: z.unknown() });
