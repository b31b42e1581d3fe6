// The one tRPC instance of the runtime: its context, error shape and base procedure.
import { initTRPC } from '@trpc/server';
import { ZodError } from 'zod';
import { formatPath } from '@streamwright/topology-model';
import { RuntimeError, runtimeCodeOf, toTRPCError, type RuntimeErrorCode } from './errors.js';
import type { RuntimeService } from './service/runtime-service.js';

export interface Context {
  service: RuntimeService;
  /** Aborted when the server shuts down, so long-lived subscriptions end and connections drain. */
  shutdown: AbortSignal;
}

/** One issue of a malformed request, with the dotted path of the field it is about. */
export interface InputIssue {
  path: string;
  message: string;
}

function inputIssues(error: ZodError): InputIssue[] {
  // The same path syntax as topology validation issues (`headers["x-id"]`, `nodes[2].kind`).
  return error.issues.map((issue) => ({
    path: formatPath(issue.path) || 'input',
    message: issue.message,
  }));
}

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    const zodError = error.cause instanceof ZodError ? error.cause : null;
    const issues = zodError ? inputIssues(zodError) : undefined;
    // zod's own message is a JSON dump of its issues; users get one line per field instead.
    const message = issues
      ? `Invalid input: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`
      : shape.message;
    const runtimeCode: RuntimeErrorCode | null = runtimeCodeOf(error);
    return {
      ...shape,
      message,
      data: { ...shape.data, stack: undefined, runtimeCode, issues: issues ?? null },
    };
  },
});

/** Errors thrown by services become tRPC errors with the code from the shared table. */
const normalizeErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof RuntimeError) {
    return { ...result, error: toTRPCError(result.error.cause) };
  }
  return result;
});

export const router = t.router;
export const procedure = t.procedure.use(normalizeErrors);
export const createCallerFactory = t.createCallerFactory;
