// Words for zod's issues. zod's stock messages ("Too big: expected number to be <=1024",
// "Invalid input: expected int, received number") say neither the value that was given nor, for
// a range, both of its ends; the rest of Streamwright's errors do ("segment.ms must be an
// integer ≥ 1, got "soon""). Issues with zod's stock text are reworded from the issue and the
// value found at its path; messages a schema gives itself are kept. Used by document validation
// here and by the runtime's request errors.
import { z } from 'zod';

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

/** The value at a zod issue's path inside `root`. */
export function valueAtPath(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
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

function reword(issue: Issue, value: unknown): string | null {
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
      return null;
  }
}

/** Whether zod wrote the message itself (a schema's own words are not to be touched). */
function isStockMessage(issue: Issue, value: unknown): boolean {
  // zod drops the input from the issues it reports; its words for some codes depend on it
  const stock = english.localeError({ ...issue, input: value } as never);
  return (typeof stock === 'string' ? stock : stock?.message) === issue.message;
}

/**
 * The issue's message, reworded when it is zod's stock text: "must be ≥ 0, got -1", or with a
 * subject "graceMs must be ≥ 0, got -1".
 */
export function issueWords(issue: Issue, value: unknown, subject?: string): string {
  if (!isStockMessage(issue, value)) return issue.message;
  const words = reword(issue, value);
  if (words === null) return issue.message;
  return subject ? `${subject} ${words}` : words;
}

/** An integer field with both ends of its range in its message (zod's names only one). */
export function intInRange(min: number, max: number, subject?: string) {
  const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`;
  const lead = subject ? `${subject} ` : '';
  return z
    .number({
      error: (issue) =>
        issue.input === undefined
          ? `${lead}is required (an integer ${range})`
          : `${lead}must be an integer ${range}, got ${showValue(issue.input)}`,
    })
    .int()
    .min(min)
    .max(max);
}
