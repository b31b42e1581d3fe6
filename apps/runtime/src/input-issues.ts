// The words of a malformed request's errors. zod's own messages ("Too big: expected number to be
// <=1024", "Invalid input: expected int, received number") say neither the value that was sent
// nor, for a range, both of its ends; every runtime error elsewhere does ("segment.ms must be an
// integer ≥ 1, got "soon""). Issues with zod's stock text are reworded here from the issue and
// the value found at its path in the request; messages a schema gives itself are kept.
import { z, type ZodError } from 'zod';
import { formatPath } from '@streamwright/topology-model';

/** One issue of a malformed request, with the dotted path of the field it is about. */
export interface InputIssue {
  path: string;
  message: string;
}

type Issue = z.core.$ZodIssue;

const english = z.locales.en();

/** A value as it appears in a message: JSON, cut short; `undefined` is "nothing". */
export function showValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

const NOUNS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'an array',
  bigint: 'an integer',
  null: 'null',
};

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function plural(n: number | bigint, word: string): string {
  return `${n} ${word}${n === 1 || n === 1n ? '' : 's'}`;
}

function bound(issue: Issue & { code: 'too_small' | 'too_big' }, value: unknown): string {
  const small = issue.code === 'too_small';
  const limit = small ? issue.minimum : issue.maximum;
  const got = showValue(value);
  if (issue.origin === 'string')
    return `must have ${small ? 'at least' : 'at most'} ${plural(limit, 'character')}, got ${got}`;
  if (issue.origin === 'array' || issue.origin === 'set')
    return `must have ${small ? 'at least' : 'at most'} ${plural(limit, 'item')}, got ${Array.isArray(value) ? value.length : got}`;
  const op = small ? (issue.inclusive ? '≥' : '>') : issue.inclusive ? '≤' : '<';
  return `must be ${op} ${limit}, got ${got}`;
}

/** Words for one issue: what the field must be and what it got. */
function reword(issue: Issue, value: unknown): string {
  switch (issue.code) {
    case 'invalid_type': {
      const noun = NOUNS[issue.expected] ?? issue.expected;
      return value === undefined
        ? `is required (${noun})`
        : `must be ${noun}, got ${showValue(value)}`;
    }
    case 'too_small':
    case 'too_big':
      return bound(issue, value);
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => showValue(v)).join(', ')}, got ${showValue(value)}`;
    case 'unrecognized_keys':
      return `has unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((k) => showValue(k)).join(', ')}`;
    case 'invalid_union':
      return `is none of the accepted forms, got ${showValue(value)}`;
    case 'invalid_format':
      return `must be ${issue.format === 'regex' && issue.pattern ? `text matching ${issue.pattern}` : `a valid ${issue.format}`}, got ${showValue(value)}`;
    default:
      return issue.message;
  }
}

/** Whether zod wrote the message itself (a schema's own words are not to be touched). */
function isStockMessage(issue: Issue, value: unknown): boolean {
  // zod drops the input from the issues it reports; its words for some codes depend on it
  const stock = english.localeError({ ...issue, input: value } as never);
  return (typeof stock === 'string' ? stock : stock?.message) === issue.message;
}

/** The issues of a request zod refused, reworded where zod's stock text would show. */
export function inputIssues(error: ZodError, input: unknown): InputIssue[] {
  // The same path syntax as topology validation issues (`headers["x-id"]`, `nodes[2].kind`).
  return error.issues.map((issue) => {
    const value = valueAt(input, issue.path);
    return {
      path: formatPath(issue.path) || 'input',
      message: isStockMessage(issue, value) ? reword(issue, value) : issue.message,
    };
  });
}

/** The one-line message of a refused request: `Invalid input: <field>: <what>; …`. */
export function inputMessage(issues: readonly InputIssue[]): string {
  return `Invalid input: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`;
}

/** An integer field with both ends of its range in its message (zod's names only one). */
export function intInRange(min: number, max: number) {
  const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`;
  return z
    .number({
      error: (issue) =>
        issue.input === undefined
          ? `is required (an integer ${range})`
          : `must be an integer ${range}, got ${showValue(issue.input)}`,
    })
    .int()
    .min(min)
    .max(max);
}
