// Which partition assignor the application's stream threads join their consumer group with:
// Kafka Streams' high-availability assignor (standbys, warm-ups, probing rebalances) where the
// group protocol carries each member's process id and task lags (a declared capability of the
// backend), else the plain task assignor.
// Apart from streams-app.ts because building the high-availability assignor means describing
// every sub-topology's topics and the instance's identity, which the lifecycle need not know.
import type { PartitionAssignor, Backend } from '../backend-spi.js';
import type { EngineLogger } from '../api.js';
import { StreamsAssignor } from '../assignment/streams-assignor.js';
import { processId } from '../eos/transactional-id.js';
import type { CompiledSubtopology } from '../processor/compile.js';
import { streamsTaskAssignor } from '../thread/task-assignor.js';
import type { EngineConfig } from './config.js';

export interface GroupAssignor {
  assignor: PartitionAssignor;
  /** The high-availability assignor (it knows every instance's tasks), or null. */
  streams: StreamsAssignor | null;
}

/**
 * Kafka Streams' high-availability assignor with standbys where the backend's group protocol
 * carries each instance's process id and task lags (Backend#groupUserData: Kafka); elsewhere
 * (the embedded log) the plain task assignor. Decided by the capability, never by the backend's
 * name.
 */
export function groupAssignorFor(
  backend: Backend,
  config: EngineConfig,
  subtopologies: readonly CompiledSubtopology[],
  logger: EngineLogger,
): GroupAssignor {
  if (backend.groupUserData !== true)
    return { assignor: streamsTaskAssignor([...subtopologies]), streams: null };
  const streams = new StreamsAssignor({
    applicationId: config.applicationId,
    subtopologies: subtopologies.map((s) => ({
      id: s.id,
      sourceTopics: s.sourceTopics,
      changelogTopics: [
        ...new Set(
          s.stores.flatMap((st) => (st.changelogTopic === null ? [] : [st.changelogTopic])),
        ),
      ],
    })),
    processId: processId(config.stateDir, config.applicationId),
    userEndPoint: config.applicationServer,
    stateDir: config.stateDir,
    configs: {
      numStandbyReplicas: config.numStandbyReplicas,
      maxWarmupReplicas: config.maxWarmupReplicas,
      acceptableRecoveryLag: config.acceptableRecoveryLag,
      probingRebalanceIntervalMs: config.probingRebalanceIntervalMs,
    },
    endOffsets: async (topic) => {
      const desc = await backend.describeTopic(topic);
      return new Map((desc?.offsets ?? []).map((o) => [o.partition, o.latest]));
    },
    logger,
  });
  return { assignor: streams, streams };
}
