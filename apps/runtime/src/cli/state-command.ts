// `streamwright state …`: interactive queries on the stores of a running runtime's application
// (Kafka Streams' KafkaStreams#store through the runtime's state.* API), one JSON line per entry.
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../router/index.js';
import { CliError } from './cli-error.js';
import { call, createRuntimeClient } from './remote-connection.js';
import { formatTable } from './table.js';
import { tokenOf } from './target.js';
import { DEFAULT_URL } from './app-command.js';

export interface StateOptions {
  url?: string;
  token?: string;
  json?: boolean;
  /** How key arguments are read: as text (string keys), or as JSON (numbers, objects). */
  keyFormat?: 'string' | 'json';
  limit?: number;
  /** KIP-535: a standby may answer; stderr names each task's instance and lag. */
  stale?: boolean;
}

type StoresOutput = inferRouterOutputs<AppRouter>['state']['stores'];

function clientFor(options: StateOptions) {
  const url = options.url ?? process.env.STREAMWRIGHT_URL ?? DEFAULT_URL;
  const client = createRuntimeClient(url, tokenOf(options));
  return { via: <T>(run: () => Promise<T>) => call(url, run), client };
}

/** A key argument as the store's key serde takes it. */
export function keyArgument(
  text: string,
  format: StateOptions['keyFormat'],
  what: string,
): unknown {
  if (format !== 'json') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CliError(`${what}: ${JSON.stringify(text)} is not JSON (--key-format json)`);
  }
}

const optionalKey = (text: string | undefined, options: StateOptions, what: string) =>
  text === undefined ? undefined : keyArgument(text, options.keyFormat, what);

const staleOf = (options: StateOptions) => (options.stale === true ? { stale: true } : {});

/** With --stale: which instance answered each task, as active or standby, and its lag. */
function printServed(answer: {
  servedBy?: { host: string; taskId: string; standby: boolean; lag: number }[];
}): void {
  for (const s of answer.servedBy ?? [])
    process.stderr.write(
      `task ${s.taskId}: ${s.standby ? 'standby' : 'active'} on ${s.host}, lag ${s.lag}\n`,
    );
}

function printLines(rows: readonly unknown[], truncated: boolean, limit: number): void {
  process.stdout.write(rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
  if (truncated)
    process.stderr.write(`more than ${limit} entries matched: showing ${limit} (see --limit)\n`);
}

export async function runStateStores(options: StateOptions): Promise<void> {
  const { via, client } = clientFor(options);
  const stores = await via(() => client.state.stores.query());
  if (options.json) {
    process.stdout.write(`${JSON.stringify(stores, null, 2)}\n`);
    return;
  }
  process.stdout.write(storesText(stores));
}

export function storesText(stores: StoresOutput): string {
  if (stores.length === 0) return 'No stores (nothing deployed, or a topology without stores).\n';
  const rows = stores.map((s) => [
    s.name,
    s.type,
    s.entries === null ? '-' : String(s.entries),
    [
      s.global ? 'global' : '',
      s.versioned ? `versioned (history ${s.versioned.historyRetentionMs} ms)` : '',
    ]
      .filter(Boolean)
      .join(', '),
  ]);
  return formatTable(['STORE', 'TYPE', 'ENTRIES', 'NOTES'], rows);
}

export async function runStateGet(
  store: string,
  key: string,
  options: StateOptions & { asOf?: number },
): Promise<void> {
  const { via, client } = clientFor(options);
  const found = await via(() =>
    client.state.get.query({
      store,
      ...staleOf(options),
      key: keyArgument(key, options.keyFormat, 'key'),
      ...(options.asOf === undefined ? {} : { asOf: options.asOf }),
    }),
  );
  printServed(found);
  if (!found.found) {
    const when = options.asOf === undefined ? '' : ` as of ${options.asOf}`;
    throw new CliError(`store "${store}" has no value for key ${JSON.stringify(found.key)}${when}`);
  }
  const { key: k, value, timestamp } = found;
  printLines(
    [
      {
        key: k,
        value,
        timestamp,
        ...(found.validTo === undefined ? {} : { validTo: found.validTo }),
      },
    ],
    false,
    1,
  );
}

export async function runStateRange(
  store: string,
  options: StateOptions & { from?: string; to?: string },
): Promise<void> {
  const { via, client } = clientFor(options);
  const limit = options.limit ?? 100;
  const result = await via(() =>
    client.state.range.query({
      store,
      ...staleOf(options),
      from: optionalKey(options.from, options, '--from'),
      to: optionalKey(options.to, options, '--to'),
      limit,
    }),
  );
  printLines(result.entries, result.truncated, limit);
  printServed(result);
}

export async function runStatePrefix(
  store: string,
  prefix: string,
  options: StateOptions,
): Promise<void> {
  const { via, client } = clientFor(options);
  const limit = options.limit ?? 100;
  const result = await via(() =>
    client.state.prefix.query({
      store,
      ...staleOf(options),
      prefix: keyArgument(prefix, options.keyFormat, 'prefix'),
      limit,
    }),
  );
  printLines(result.entries, result.truncated, limit);
  printServed(result);
}

export async function runStateAll(store: string, options: StateOptions): Promise<void> {
  const { via, client } = clientFor(options);
  const limit = options.limit ?? 100;
  const result = await via(() => client.state.all.query({ store, limit, ...staleOf(options) }));
  printLines(result.entries, result.truncated, limit);
  printServed(result);
}

interface RangeOptions {
  key?: string;
  from?: string;
  to?: string;
  backward?: boolean;
}

function keysOf(options: StateOptions & RangeOptions) {
  if (options.key !== undefined && (options.from !== undefined || options.to !== undefined))
    throw new CliError('--key is one key; --from / --to a key range: give one or the other');
  return {
    ...(options.key === undefined
      ? {}
      : { key: keyArgument(options.key, options.keyFormat, '--key') }),
    ...(options.from === undefined
      ? {}
      : { from: keyArgument(options.from, options.keyFormat, '--from') }),
    ...(options.to === undefined ? {} : { to: keyArgument(options.to, options.keyFormat, '--to') }),
    backward: options.backward === true,
  };
}

export async function runStateWindows(
  store: string,
  options: StateOptions & RangeOptions & { timeFrom?: number; timeTo?: number },
): Promise<void> {
  const { via, client } = clientFor(options);
  const limit = options.limit ?? 100;
  const result = await via(() =>
    client.state.windows.query({
      store,
      ...staleOf(options),
      ...keysOf(options),
      ...(options.timeFrom === undefined ? {} : { timeFrom: options.timeFrom }),
      ...(options.timeTo === undefined ? {} : { timeTo: options.timeTo }),
      limit,
    }),
  );
  printLines(result.windows, result.truncated, limit);
  printServed(result);
}

export async function runStateSessions(
  store: string,
  options: StateOptions & RangeOptions & { earliestEnd?: number; latestStart?: number },
): Promise<void> {
  const { via, client } = clientFor(options);
  const limit = options.limit ?? 100;
  const result = await via(() =>
    client.state.sessions.query({
      store,
      ...staleOf(options),
      ...keysOf(options),
      ...(options.earliestEnd === undefined ? {} : { earliestEnd: options.earliestEnd }),
      ...(options.latestStart === undefined ? {} : { latestStart: options.latestStart }),
      limit,
    }),
  );
  printLines(result.sessions, result.truncated, limit);
  printServed(result);
}
