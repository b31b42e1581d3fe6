// Limits on what one request may carry, each refused with a 413 that names the limit: hostile
// or accidental input must be a clear client error, never a 500 (`Maximum call stack size
// exceeded` from a topic config nested 20,000 deep) or a stalled server (a 5 MB topology blocked
// /healthz for up to 14.6 s). Checked before any validation, without recursion.
import { RuntimeError } from '../errors.js';

export interface InputLimits {
  /** Bytes of a request carrying a topology document (Content-Length). */
  maxDocumentBytes: number;
  /** Nodes of a topology document. */
  maxNodes: number;
  /** Nesting of objects and arrays in any request input. */
  maxDepth: number;
}

export const DEFAULT_INPUT_LIMITS: InputLimits = {
  maxDocumentBytes: 2 * 1024 * 1024,
  maxNodes: 2000,
  maxDepth: 64,
};

/** The procedures whose input is (or holds) a topology document. */
export const DOCUMENT_PROCEDURES = [
  'topology.validate',
  'topology.describe',
  'app.deploy',
  'workspace.save',
  'preview.',
];

/** Throws LIMIT_EXCEEDED when `input` nests deeper than the limit or holds too many nodes. */
export function checkInputLimits(input: unknown, limits: InputLimits = DEFAULT_INPUT_LIMITS): void {
  // Iterative: a recursive walk would overflow the stack on exactly the inputs it must refuse.
  const stack: [unknown, number][] = [[input, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= limits.maxDepth)
      throw new RuntimeError(
        'LIMIT_EXCEEDED',
        `the input nests objects and arrays deeper than the limit of ${limits.maxDepth} levels`,
      );
    const children: unknown[] = Array.isArray(value) ? value : Object.values(value);
    // Only objects and arrays go on the stack: a long list of numbers costs one pass, no tuples.
    for (const child of children)
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  const topology = (input as { topology?: { nodes?: unknown } } | null)?.topology;
  const nodes = typeof topology === 'object' && topology !== null ? topology.nodes : undefined;
  if (Array.isArray(nodes) && nodes.length > limits.maxNodes)
    throw new RuntimeError(
      'LIMIT_EXCEEDED',
      `the topology has ${nodes.length} nodes, more than the limit of ${limits.maxNodes}`,
    );
}

/**
 * The 413 message for a request over the document size limit, judged by its Content-Length before
 * its body is read (null: within the limit, or not a document request).
 */
export function documentTooLarge(
  path: string,
  contentLength: string | undefined,
  limits: InputLimits = DEFAULT_INPUT_LIMITS,
): string | null {
  if (!path.startsWith('/trpc/')) return null;
  let procedures: string[];
  try {
    procedures = decodeURIComponent(path.slice('/trpc/'.length)).split(',');
  } catch {
    return null; // a malformed path: tRPC answers it
  }
  if (
    !procedures.some((p) =>
      DOCUMENT_PROCEDURES.some((d) => p === d || (d.endsWith('.') && p.startsWith(d))),
    )
  )
    return null;
  const bytes = Number(contentLength);
  if (!Number.isFinite(bytes) || bytes <= limits.maxDocumentBytes) return null;
  return `the request carries ${bytes} bytes, more than the limit of ${limits.maxDocumentBytes} bytes for a topology document`;
}
