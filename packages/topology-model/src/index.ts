export * from './schema.js';
export type * from './plan-types.js';
