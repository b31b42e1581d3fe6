// Rules of stream sources beyond one topic (StreamsBuilder#stream of a topic collection or a
// Pattern) and of per-source timestamp extractors (Consumed.withTimestampExtractor).
import { checkExpression } from '../expressions/compile.js';
import { compileTopicPattern } from '../topic-pattern.js';
import type { ValidationIssue } from './issues.js';

type Issue = (rest: PropertyKey[], code: ValidationIssue['code'], message: string) => void;

/** Exactly one of topic / topics / topicPattern; the pattern compiles. */
export function checkSourceTopicChoice(config: Record<string, unknown>, issue: Issue): void {
  const given = (['topic', 'topics', 'topicPattern'] as const).filter(
    (k) => config[k] !== undefined,
  );
  if (given.length !== 1) {
    issue(
      ['config', given[1] ?? 'topic'],
      'invalid_config',
      given.length === 0
        ? 'a source needs a topic, topics or a topicPattern'
        : `a source reads a topic, topics or a topicPattern — only one of them (got ${given.join(', ')})`,
    );
  }
  if (typeof config.topicPattern === 'string') {
    const compiled = compileTopicPattern(config.topicPattern);
    if (!compiled.ok) issue(['config', 'topicPattern'], 'invalid_config', compiled.message);
  }
}

/**
 * The CEL of `{expression}` extractors: a record expression whose result is epoch milliseconds.
 * Statically an int (or dyn, as JSON fields are); anything else is an `expression_type` error.
 */
export function checkTimestampExtractor(
  config: Record<string, unknown>,
  push: (issue: Omit<ValidationIssue, 'nodeId'>, rest: PropertyKey[]) => void,
): void {
  const spec = config.timestampExtractor;
  if (typeof spec !== 'object' || spec === null) return;
  const expression = (spec as { expression?: unknown }).expression;
  if (typeof expression !== 'string' || expression.length === 0) return; // the schema reports it
  const at = ['config', 'timestampExtractor', 'expression'];
  const result = checkExpression(expression, 'mapValues');
  if (!result.ok) {
    push(
      {
        path: '',
        code: result.kind === 'syntax' ? 'expression_syntax' : 'expression_type',
        message: result.message,
        position: result.position,
      },
      at,
    );
    return;
  }
  if (!['int', 'uint', 'dyn'].includes(result.resultType)) {
    push(
      {
        path: '',
        code: 'expression_type',
        message: `a timestamp extractor must return epoch milliseconds (an int), but this expression returns ${result.resultType}`,
      },
      at,
    );
  }
}

/**
 * Kafka Streams refuses a pattern that matches a topic another source reads
 * (InternalTopologyBuilder: "Pattern … will match a topic that has already been registered by
 * another source"), and two patterns matching one topic. Checked against the declared topics.
 */
export function checkPatternOverlaps(
  patterns: { nodeId: string; pattern: string; issue: Issue }[],
  declaredTopics: Iterable<string>,
  readers: Map<string, string>,
): void {
  const topics = [...declaredTopics];
  for (const { nodeId, pattern, issue } of patterns) {
    const compiled = compileTopicPattern(pattern);
    if (!compiled.ok) continue;
    for (const topic of topics) {
      if (!compiled.regex.test(topic)) continue;
      const other = readers.get(topic);
      if (other !== undefined && other !== nodeId) {
        issue(
          ['config', 'topicPattern'],
          'duplicate_source_topic',
          `pattern "${pattern}" matches topic "${topic}", which node "${other}" already reads; Kafka Streams allows one source per topic`,
        );
      } else readers.set(topic, nodeId);
    }
  }
}
