// `--data-dir`: the command opens the data dir itself (taking its lock, so a running runtime or
// another command keeps it out) and works on the embedded backend directly.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { openDataDir } from '../service/data-dir.js';
import { RecordService } from '../service/record-service.js';
import { TopicService } from '../service/topic-service.js';
import { inputIssues, inputMessage } from '../input-issues.js';
import { createTopicInput } from '../router/inputs.js';
import { CliError } from './cli-error.js';
import type { Connection } from './connection.js';

export interface DirectOptions {
  dataDir: string;
  /** The command, named in the lock for whoever is refused meanwhile. */
  command: string;
  /** Create the data dir when it does not exist (only `topics create` does). */
  create?: boolean;
}

export async function openDirectConnection(options: DirectOptions): Promise<Connection> {
  const dataDir = resolve(options.dataDir);
  if (!options.create && !(await isDirectory(dataDir))) {
    throw new CliError(
      `no data dir at ${dataDir}: pass --data-dir <dir> (where \`streamwright serve\` keeps its data), or --url <runtime>`,
    );
  }
  const dir = await openDataDir(dataDir, options.command);
  // No application runs here: the lock keeps the runtime out while the command works.
  const guard = { assertOpen() {}, appUsingTopic: () => null, activeGroup: () => null };
  const topics = new TopicService(dir.backend, guard);
  const records = new RecordService(dir.backend, guard);
  return {
    describeTarget: `data dir ${dataDir}`,
    listTopics: () => topics.list(),
    describeTopic: (name) => topics.describe(name),
    // the runtime's API checks its requests; on a data dir the same checks, in the same words
    createTopic: (request) => {
      const checked = createTopicInput.safeParse(request);
      if (!checked.success) throw new CliError(inputMessage(inputIssues(checked.error, request)));
      return topics.create(checked.data);
    },
    deleteTopic: (name) => topics.delete(name),
    produceBatch: (topic, batch, compression) => records.produceBatch(topic, batch, compression),
    fetch: (request, signal) => records.fetch(request, signal),
    commitOffsets: (group, topic, offsets) => records.commitOffsets(group, topic, offsets),
    committedOffsets: (group, topic) => records.committedOffsets(group, topic),
    close: () => dir.close(),
  };
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
