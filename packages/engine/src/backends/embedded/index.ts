export { createEmbeddedBackend } from './embedded-backend.js';
export type { EmbeddedBackend, EmbeddedBackendOptions, NewTopic } from './embedded-backend.js';
export { rangeAssignor, roundRobinAssignor } from './assignors.js';
