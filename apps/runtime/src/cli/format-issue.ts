// One line per validation issue: where (path, node, position in the expression), what, why.
import type { ValidationIssue } from '@streamwright/topology-model';

export function formatIssue(issue: ValidationIssue): string {
  const where = [issue.path === '' ? '(document)' : issue.path];
  if (issue.nodeId) where.push(`node ${issue.nodeId}`);
  if (issue.position) where.push(`at ${issue.position.line}:${issue.position.column}`);
  return `${where.join(', ')}: ${issue.code}: ${issue.message}`;
}
