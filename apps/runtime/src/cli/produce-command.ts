// `streamwright produce <topic>`: JSON lines from stdin, appended in order in batches. Each batch
// is acknowledged before the next is read, so on a bad line (or a refused batch) the command can
// say exactly how many records are in the topic: every line before it.
import { StringDecoder } from 'node:string_decoder';
import type { CompressionType } from '@streamwright/engine';
import type { BatchRecord } from '../service/record-service.js';
import { CliError, describeError } from './cli-error.js';
import type { TargetOptions } from './connection.js';
import { parseLine } from './produce-lines.js';
import { Progress } from './progress.js';
import type { RecordFormat } from './record-format.js';
import { connect } from './target.js';

export interface ProduceOptions extends TargetOptions {
  keyFormat: RecordFormat;
  valueFormat: RecordFormat;
  /** The batches' compression.type (none by default). */
  compression?: CompressionType;
}

const MAX_BATCH_RECORDS = 1000;
const MAX_BATCH_BYTES = 1024 * 1024;

export async function runProduce(
  topic: string,
  options: ProduceOptions,
  input: AsyncIterable<Buffer | string> = process.stdin,
): Promise<void> {
  const connection = await connect(options, `produce ${topic}`);
  const progress = new Progress(process.stderr, 'produced');
  let acknowledged = 0;
  try {
    const description = await connection.describeTopic(topic);
    const formats = {
      key: options.keyFormat,
      value: options.valueFormat,
      partitions: description.partitions,
    };
    let batch: BatchRecord[] = [];
    let batchBytes = 0;
    const flush = async (): Promise<void> => {
      if (batch.length === 0) return;
      const sending = batch;
      batch = [];
      batchBytes = 0;
      try {
        await connection.produceBatch(topic, sending, options.compression ?? 'none');
      } catch (error) {
        throw new CliError(
          `${describeError(error)} (${counted(acknowledged)} acknowledged before this batch of ${sending.length})`,
        );
      }
      acknowledged += sending.length;
      progress.update(acknowledged);
    };

    let lineNumber = 0;
    let pending = '';
    // Keeps a UTF-8 character split across two chunks whole.
    const decoder = new StringDecoder('utf8');
    const handle = async (line: string): Promise<void> => {
      lineNumber++;
      const text = line.endsWith('\r') ? line.slice(0, -1) : line;
      if (text.trim() === '') return; // blank lines are skipped, but counted
      let record: BatchRecord;
      try {
        record = parseLine(text, formats);
      } catch (error) {
        await flush(); // the lines before the bad one go in, so the count below is exact
        throw new CliError(
          `line ${lineNumber}: ${error instanceof Error ? error.message : String(error)} (${counted(acknowledged)} acknowledged before it)`,
        );
      }
      batch.push(record);
      batchBytes += (record.key?.byteLength ?? 0) + (record.value?.byteLength ?? 0) + 64;
      if (batch.length >= MAX_BATCH_RECORDS || batchBytes >= MAX_BATCH_BYTES) await flush();
    };

    for await (const chunk of input) {
      pending += typeof chunk === 'string' ? chunk : decoder.write(chunk);
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) await handle(line);
      // What arrived so far goes out now: typed lines are sent as they come, piped ones in batches.
      await flush();
    }
    pending += decoder.end();
    if (pending !== '') await handle(pending);
    await flush();
    progress.done();
    process.stderr.write(`produced ${counted(acknowledged)} to ${topic}\n`);
  } catch (error) {
    progress.done();
    throw error;
  } finally {
    await connection.close();
  }
}

function counted(n: number): string {
  return `${n} record${n === 1 ? '' : 's'}`;
}
