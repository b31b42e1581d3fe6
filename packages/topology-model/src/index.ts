export * from './schema.js';
export type * from './plan-types.js';
export * from './expressions/index.js';
