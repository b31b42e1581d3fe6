export * from './schema.js';
export type * from './plan-types.js';
export * from './expressions/index.js';
export {
  expressionFields,
  logicValuesOf,
  topicFields,
  type ExpressionField,
  type LogicAt,
} from './expression-fields.js';
export {
  FLOW_LABEL,
  INPUT_PORT,
  OUTPUT_PORT,
  compareEdges,
  defaultInputPort,
  freshNodeId,
  inputPortsOf,
  isNodeKind,
  isSourceKind,
  outputPortsOf,
  splitPorts,
  type EdgeLike,
} from './graph.js';
export {
  ISSUE_CODES,
  formatPath,
  type IssueCode,
  type ValidateOptions,
  type ValidationIssue,
  type ValidationResult,
} from './validate/issues.js';
export { validateTopology } from './validate/validate.js';
export {
  checkConnection,
  type ConnectionCheck,
  type ConnectionGraph,
} from './validate/connection.js';
export { PlanningError, CHANGELOG_TOPIC_CONFIG, REPARTITION_TOPIC_CONFIG } from './plan/builder.js';
export { planTopology } from './plan/plan.js';
export {
  copartitionMessage,
  resolveCopartitioning,
  type CopartitionMismatch,
} from './plan/copartition.js';
export { checkRecordTypes, serdeType, type RecordType } from './validate/record-types.js';
export { effectiveStoreType } from './plan/store-type.js';
export { internalTopicPartitions, taskIdsFor, type TaskAssignment } from './plan/tasks.js';
export { describeTopology } from './describe.js';
export { exampleTopology } from './example.js';
export { exportTopology } from './io/canonical.js';
export { importTopology, type ImportOptions } from './io/import.js';
export {
  migrateDocument,
  migrations,
  MigrationError,
  type Migration,
  type MigrationRegistry,
  type MigrateOptions,
} from './io/migrations.js';
export { topologyJsonSchema, topologyJsonSchemaText, TOPOLOGY_SCHEMA_ID } from './json-schema.js';
export { intInRange, issueWords, showValue, valueAtPath } from './issue-words.js';
export * from './streams-config/index.js';
