// An error the CLI reports as one line on stderr (no stack), with an exit code.
import { TRPCClientError } from '@trpc/client';
import { RuntimeError } from '../errors.js';

export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** The one line a user reads for anything a command throws. */
export function describeError(error: unknown, url?: string): string {
  if (error instanceof CliError || error instanceof RuntimeError) return error.message;
  if (error instanceof TRPCClientError) {
    const status = httpStatusOf(error);
    if (status === 401) {
      return `the runtime${url ? ` at ${url}` : ''} requires a token: pass --token <token> or set STREAMWRIGHT_TOKEN`;
    }
    if (status === 403) return `the runtime refused the request: ${guardMessage(error)}`;
    const cause = error.cause as { code?: string; cause?: { code?: string } } | undefined;
    const network = cause?.code ?? cause?.cause?.code;
    if (network === 'ECONNREFUSED' || /fetch failed/i.test(error.message)) {
      return `cannot reach the runtime${url ? ` at ${url}` : ''}${network ? ` (${network})` : ''}: is \`streamwright serve\` running there?`;
    }
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

function httpStatusOf(error: TRPCClientError<never>): number | undefined {
  const data = error.data as { httpStatus?: number } | undefined;
  if (data?.httpStatus) return data.httpStatus;
  const meta = error.meta as { response?: { status?: number } } | undefined;
  return meta?.response?.status;
}

function guardMessage(error: TRPCClientError<never>): string {
  const meta = error.meta as { responseJSON?: { error?: { message?: string } } } | undefined;
  return meta?.responseJSON?.error?.message ?? error.message;
}
