// Where a topic command works: through a runtime (`--url`, or STREAMWRIGHT_URL) or on a data
// dir directly (`--data-dir`, default ./.streamwright, as `serve` uses).
import { CliError } from './cli-error.js';
import type { Connection, TargetOptions } from './connection.js';
import { openDirectConnection } from './direct-connection.js';
import { openRemoteConnection } from './remote-connection.js';

export const DEFAULT_DATA_DIR = './.streamwright';

export async function connect(
  options: TargetOptions,
  command: string,
  createDataDir = false,
): Promise<Connection> {
  const url = options.url ?? nonEmpty(process.env.STREAMWRIGHT_URL);
  if (url && options.dataDir) {
    throw new CliError(
      '--url and --data-dir exclude each other: work through a runtime, or on a data dir',
    );
  }
  if (url) return openRemoteConnection(url, tokenOf(options));
  return openDirectConnection({
    dataDir: options.dataDir ?? DEFAULT_DATA_DIR,
    command,
    create: createDataDir,
  });
}

export function tokenOf(options: { token?: string }): string | undefined {
  return options.token ?? nonEmpty(process.env.STREAMWRIGHT_TOKEN);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
