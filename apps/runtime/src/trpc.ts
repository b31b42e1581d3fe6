// The one tRPC instance of the runtime: its context, error shape and base procedure.
import { initTRPC } from '@trpc/server';
import { ZodError } from 'zod';
import { inputIssues, inputMessage } from './input-issues.js';
import {
  RuntimeError,
  runtimeCodeOf,
  toTRPCError,
  tooManyOpenFiles,
  diskFull,
  type RuntimeErrorCode,
} from './errors.js';
import type { RuntimeService } from './service/runtime-service.js';
import { checkInputLimits } from './service/input-limits.js';

export interface Context {
  service: RuntimeService;
  /** Aborted when the server shuts down, so long-lived subscriptions end and connections drain. */
  shutdown: AbortSignal;
  /**
   * Another instance of the application forwarded this state query (the forwarded header): it
   * is answered from this instance's tasks and never forwarded again.
   */
  forwarded?: boolean;
}

export type { InputIssue } from './input-issues.js';

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error, input }) {
    const zodError = error.cause instanceof ZodError ? error.cause : null;
    const issues = zodError ? inputIssues(zodError, input) : undefined;
    // zod's own message is a JSON dump of its issues; users get one line per field instead.
    const message = issues ? inputMessage(issues) : shape.message;
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
  const resource = result.ok ? null : (tooManyOpenFiles(result.error) ?? diskFull(result.error));
  if (resource && !result.ok) return { ...result, error: toTRPCError(resource) };
  return result;
});

/** Input nesting and topology size limits, before zod or any service sees the input. */
const inputLimits = t.middleware(async ({ next, getRawInput }) => {
  checkInputLimits(await getRawInput());
  return next();
});

export const router = t.router;
export const procedure = t.procedure.use(normalizeErrors).use(inputLimits);
export const createCallerFactory = t.createCallerFactory;
