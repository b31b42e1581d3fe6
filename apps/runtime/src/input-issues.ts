// The words of a malformed request's errors: each issue with the field's path, zod's stock text
// reworded with the value sent and the allowed range (topology-model's issue-words, which
// document validation uses too); messages a schema gives itself are kept.
import type { ZodError } from 'zod';
import {
  formatPath,
  intInRange,
  issueWords,
  showValue,
  valueAtPath,
} from '@streamwright/topology-model';

export { intInRange, showValue };

/** One issue of a malformed request, with the dotted path of the field it is about. */
export interface InputIssue {
  path: string;
  message: string;
}

/** The issues of a request zod refused, reworded where zod's stock text would show. */
export function inputIssues(error: ZodError, input: unknown): InputIssue[] {
  // The same path syntax as topology validation issues (`headers["x-id"]`, `nodes[2].kind`).
  return error.issues.map((issue) => {
    return {
      path: formatPath(issue.path) || 'input',
      message: issueWords(issue, valueAtPath(input, issue.path)),
    };
  });
}

/** The one-line message of a refused request: `Invalid input: <field>: <what>; …`. */
export function inputMessage(issues: readonly InputIssue[]): string {
  return `Invalid input: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`;
}
