// `streamwright app deploy <file> --url <runtime>`: deploy a topology file to a running runtime,
// as the designer's Deploy does (app.deploy). The runtime validates it (its processors and
// functions included) and answers with every error, printed as `validate` prints them.
import { readFile } from 'node:fs/promises';
import type { ValidationIssue } from '@streamwright/topology-model';
import type { AppOptions } from './app-command.js';
import { DEFAULT_URL } from './app-command.js';
import { report } from './check-file.js';
import { CliError } from './cli-error.js';
import { call, createRuntimeClient } from './remote-connection.js';
import { tokenOf } from './target.js';

export async function runAppDeploy(
  file: string,
  options: AppOptions & { start?: boolean },
): Promise<void> {
  let topology: unknown;
  try {
    topology = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CliError(
      error instanceof SyntaxError
        ? `${file} is not JSON: ${reason} (\`streamwright validate ${file}\` gives the line and column)`
        : `cannot read ${file}: ${reason}`,
    );
  }
  const url = options.url ?? process.env.STREAMWRIGHT_URL ?? DEFAULT_URL;
  const client = createRuntimeClient(url, tokenOf(options));
  const result = await call(url, () =>
    client.app.deploy.mutate({ topology, start: options.start !== false }),
  );
  if (options.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    if (!result.ok) process.exitCode = 1;
    return;
  }
  if (!result.ok) {
    const errors = result.errors as ValidationIssue[];
    const count = errors.length;
    return report({
      header: `${file}: invalid, ${count} error${count === 1 ? '' : 's'}; nothing deployed`,
      errors,
    });
  }
  const { deployment, status } = result;
  const lines = [
    `Deployed ${deployment.applicationId} (version ${deployment.version}): ${status.state}`,
    ...result.warnings.map((w) => `note: ${w}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
