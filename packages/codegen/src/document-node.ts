import type { TopologyDocument } from '@streamwright/topology-model';

/** A node as the document holds it (kind and config not yet checked per kind). */
export type RawNode = TopologyDocument['nodes'][number];
