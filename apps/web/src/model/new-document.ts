import {
  SCHEMA_VERSION,
  topologyDocumentSchema,
  type TopologyDocument,
} from '@streamwright/topology-model';

/**
 * Designer-created apps commit every 100 ms instead of Kafka Streams' 30 s default, so counters
 * and sink topics follow the records a user produces while watching (see docs/DESIGNER.md).
 */
export const DESIGNER_COMMIT_INTERVAL_MS = 100;

export function emptyDocument(applicationId = 'my-streams-app'): TopologyDocument {
  // parsed through the schema, so every section it declares gets its default (empty) value
  return topologyDocumentSchema.parse({
    schemaVersion: SCHEMA_VERSION,
    application: {
      id: applicationId,
      config: {
        'commit.interval.ms': DESIGNER_COMMIT_INTERVAL_MS,
        'processing.exception.handler': 'log-and-fail',
      },
    },
  });
}
