import { SCHEMA_VERSION, type TopologyDocument } from '@streamwright/topology-model';

/**
 * Designer-created apps commit every 100 ms instead of Kafka Streams' 30 s default, so counters
 * and sink topics follow the records a user produces while watching (see docs/DESIGNER.md).
 */
export const DESIGNER_COMMIT_INTERVAL_MS = 100;

export function emptyDocument(applicationId = 'my-streams-app'): TopologyDocument {
  return {
    schemaVersion: SCHEMA_VERSION,
    application: {
      id: applicationId,
      config: {
        'commit.interval.ms': DESIGNER_COMMIT_INTERVAL_MS,
        'processing.exception.handler': 'log-and-fail',
      },
    },
    topics: [],
    nodes: [],
    edges: [],
    layout: { nodes: {} },
  };
}
