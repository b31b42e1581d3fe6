// `@streamwright/log/reader`: what a thread that does not own the log needs to read its segment
// files from a ReadPlan (Log.readPlans) and decode the batches — without loading the log itself
// (groups, transactions, the cleaner), so a worker thread starts with a small module graph.
export { PartitionFileReader, type FileBatch, type FileRead } from './read/file-reader.js';
export type { ReadPlan, SegmentSpan } from './read/read-plan.js';
export type { AbortedTxn } from './storage/txn-index.js';
export { LogError, LogErrorCode, isLogError } from './errors.js';
export { decodeRecords, readBatchHeader, type BatchHeader } from './format/record-batch.js';
export {
  exactHeaders,
  headerEntries,
  headersOf,
  type Header,
  type Headers,
} from './format/headers.js';
