// Where is a JSON text broken? JSON.parse's messages differ between engines (and V8 omits the
// position for some errors), so on failure we re-scan the text with a small RFC 8259 checker
// that reports the first offending offset. Only the error path pays for this.

export interface JsonSyntaxError {
  message: string;
  offset: number;
}

export function findJsonSyntaxError(text: string): JsonSyntaxError | null {
  let i = 0;
  const fail = (message: string, at = i): never => {
    throw { message, offset: at } satisfies JsonSyntaxError;
  };
  const describe = (): string => (i >= text.length ? 'end of input' : JSON.stringify(text[i]));
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const literal = (word: string): void => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(`unexpected ${describe()}, expected a value`);
  };
  const string = (): void => {
    i++; // opening quote
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) fail('control character in string (escape it)');
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else fail('invalid escape in string');
      } else i++;
    }
  };
  const number = (): void => {
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i));
    if (!m || m[0] === '-') fail('invalid number');
    i += (m as RegExpExecArray)[0].length;
  };
  const value = (depth: number): void => {
    if (depth > 10_000) fail('nesting too deep');
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"')
          fail(`unexpected ${describe()}, expected a property name in double quotes`);
        string();
        ws();
        if (text[i] !== ':') fail(`unexpected ${describe()}, expected ':' after the property name`);
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail(`unexpected ${describe()}, expected ',' or '}'`);
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail(`unexpected ${describe()}, expected ',' or ']'`);
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    fail(`unexpected ${describe()}, expected a value`);
  };
  try {
    value(0);
    ws();
    if (i < text.length) fail(`unexpected ${describe()} after the end of the JSON value`);
    return null;
  } catch (error) {
    if (typeof error === 'object' && error !== null && 'offset' in error)
      return error as JsonSyntaxError;
    throw error;
  }
}
