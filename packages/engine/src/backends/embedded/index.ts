export { createEmbeddedBackend } from './embedded-backend.js';
export type { EmbeddedBackend, EmbeddedBackendOptions, NewTopic } from './embedded-backend.js';
export { rangeAssignor, roundRobinAssignor } from '../shared/assignors.js';
/** The topic configs the embedded log implements (Backend#appliesTopicConfig without a log). */
export { acceptsTopicConfig as embeddedAppliesTopicConfig } from '@streamwright/log';
