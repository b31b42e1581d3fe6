// The JSON Schema of topology documents (docs/topology.schema.json), generated from the zod
// schema so the two cannot drift: `pnpm --filter @streamwright/topology-model gen:schema`
// rewrites the file and a test fails when the committed copy is stale.
import { z } from 'zod';
import {
  SCHEMA_VERSION,
  nodeKindNames,
  nodeKinds,
  rawNodeSchema,
  topologyDocumentSchema,
} from './schema.js';

export const TOPOLOGY_SCHEMA_ID = 'https://streamwright.dev/schemas/topology.schema.json';

/**
 * The document schema with each node's config spelled out per kind (validateTopology checks
 * configs per kind to report precise paths; a JSON Schema consumer gets the same rules here).
 */
function documentSchemaForJson(): z.ZodType {
  const [first, ...rest] = nodeKindNames.map((kind) =>
    rawNodeSchema.extend({
      kind: z.literal(kind).describe(nodeKinds[kind].label),
      config: (nodeKinds[kind].config as z.ZodObject).strict().default({}),
    }),
  );
  const node = z.discriminatedUnion('kind', [first as NonNullable<typeof first>, ...rest]);
  return topologyDocumentSchema.extend({ nodes: z.array(node).default([]) });
}

export function topologyJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(documentSchemaForJson(), {
    target: 'draft-2020-12',
    io: 'input',
  });
  return {
    $schema: generated.$schema,
    $id: TOPOLOGY_SCHEMA_ID,
    title: `Streamwright topology document, schemaVersion ${SCHEMA_VERSION}`,
    description:
      'Generated from packages/topology-model/src/schema.ts; see docs/TOPOLOGY_FORMAT.md. Graph rules (edges, ports, flow types, cycles, topics) are checked by validateTopology, not by this schema.',
    ...Object.fromEntries(Object.entries(generated).filter(([k]) => k !== '$schema')),
  };
}

/** The file's exact text. */
export function topologyJsonSchemaText(): string {
  return `${JSON.stringify(topologyJsonSchema(), null, 2)}\n`;
}
