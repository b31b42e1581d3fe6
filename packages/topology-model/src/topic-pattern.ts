// Source topic patterns (StreamsBuilder#stream(Pattern)): Kafka Streams subscribes to every topic
// whose whole name matches (Matcher#matches, not find). Patterns use the regular-expression
// syntax JavaScript and Java share (character classes, groups, alternation, quantifiers).

/** The pattern compiled to match whole topic names, or the reason it does not compile. */
export function compileTopicPattern(
  pattern: string,
): { ok: true; regex: RegExp } | { ok: false; message: string } {
  try {
    // Compiled alone first, so that a pattern like `a)|(b` cannot escape the anchoring group.
    new RegExp(pattern);
    return { ok: true, regex: new RegExp(`^(?:${pattern})$`) };
  } catch (error) {
    return { ok: false, message: `not a valid regular expression: ${(error as Error).message}` };
  }
}

export function matchesTopicPattern(pattern: string, topic: string): boolean {
  const compiled = compileTopicPattern(pattern);
  return compiled.ok && compiled.regex.test(topic);
}
