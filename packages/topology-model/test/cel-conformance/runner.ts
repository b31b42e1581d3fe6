// Runs the CEL conformance suite (google/cel-spec test data, shipped as @bufbuild/cel-spec)
// against cel-js configured exactly as Streamwright configures it (environment.ts).
//
// What is attempted and what is skipped, and why, is decided here and printed with the result:
// whole suites about protobuf messages or extension libraries cel-js does not ship are skipped,
// as are single tests that need protobuf message values, proto containers or custom functions.
import { tests } from '@bufbuild/cel-spec/testdata/conformance.js';
import { createEnvironment } from '../../src/expressions/environment.js';
import {
  celEquals,
  decodeType,
  decodeValue,
  normaliseTypeName,
  show,
  Unsupported,
  type JsonValue,
} from './values.js';

type JsonObject = { [k: string]: JsonValue };
interface RawSuite {
  name: string;
  suites?: RawSuite[];
  tests?: { original: JsonObject }[];
}

/** Suites skipped as a whole, with the reason reported next to the pass rate. */
export const SKIPPED_SUITES: Record<string, string> = {
  proto2: 'protobuf messages (Streamwright values are JSON; no message types are registered)',
  proto3: 'protobuf messages',
  proto2_ext: 'protobuf extensions',
  enums: 'protobuf enums',
  wrappers: 'protobuf wrapper types (google.protobuf.Int32Value, ...)',
  dynamic: 'protobuf dynamic types (google.protobuf.Any/Struct/Value, wrappers)',
  namespace: 'proto package containers',
  math_ext: 'CEL math extension library (math.*), not shipped by cel-js 8',
  encoders_ext: 'CEL encoders extension library (base64.*), not shipped by cel-js 8',
  block_ext: 'cel.block / cel.index (an optimiser-internal extension), not shipped by cel-js 8',
};

export interface ConformanceFailure {
  suite: string;
  name: string;
  expr: string;
  reason: string;
}

export interface ConformanceReport {
  attempted: number;
  passed: number;
  failures: ConformanceFailure[];
  /** Skipped tests per reason (suite-level reasons are keyed `suite <name>: <reason>`). */
  skipped: Record<string, number>;
  perSuite: Record<string, { attempted: number; passed: number }>;
}

export function runConformance(options: { mixedNumericArithmetic: boolean }): ConformanceReport {
  const report: ConformanceReport = {
    attempted: 0,
    passed: 0,
    failures: [],
    skipped: {},
    perSuite: {},
  };
  const skip = (reason: string, n = 1): void => {
    report.skipped[reason] = (report.skipped[reason] ?? 0) + n;
  };
  for (const suite of (tests as RawSuite).suites ?? []) {
    const reason = SKIPPED_SUITES[suite.name];
    if (reason) {
      skip(`suite ${suite.name}: ${reason}`, countTests(suite));
      continue;
    }
    const stats = (report.perSuite[suite.name] = { attempted: 0, passed: 0 });
    for (const [path, test] of flatten(suite, suite.name)) {
      const skipReason = testSkipReason(test);
      if (skipReason) {
        skip(skipReason);
        continue;
      }
      let outcome: string | null;
      try {
        outcome = runOne(test, options);
      } catch (error) {
        if (!(error instanceof Unsupported)) throw error;
        skip(`unsupported: ${error.message}`);
        continue;
      }
      report.attempted++;
      stats.attempted++;
      if (outcome === null) {
        report.passed++;
        stats.passed++;
      } else {
        report.failures.push({
          suite: path,
          name: String(test.name),
          expr: String(test.expr),
          reason: outcome,
        });
      }
    }
  }
  return report;
}

function testSkipReason(test: JsonObject): string | null {
  if (test.container) return 'test uses a proto container';
  const json = JSON.stringify(test);
  if (json.includes('"objectValue"') || json.includes('"enumValue"'))
    return 'test needs protobuf message or enum values';
  if (/google\.protobuf\.|cel\.expr\.conformance|TestAllTypes/.test(String(test.expr))) {
    return 'expression constructs protobuf messages';
  }
  for (const decl of (test.typeEnv as JsonObject[] | undefined) ?? []) {
    if (decl.function) return 'test declares custom functions';
  }
  return null;
}

/** Returns null when the test passes, else why it failed. Throws Unsupported to skip. */
function runOne(test: JsonObject, options: { mixedNumericArithmetic: boolean }): string | null {
  const variables: Record<string, string> = {};
  for (const decl of (test.typeEnv as JsonObject[] | undefined) ?? []) {
    variables[String(decl.name)] = decodeType((decl.ident as JsonObject).type as JsonObject);
  }
  const bindings: Record<string, unknown> = {};
  for (const [name, exprValue] of Object.entries((test.bindings as JsonObject | undefined) ?? {})) {
    bindings[name] = decodeValue((exprValue as JsonObject).value as JsonObject);
    variables[name] ??= 'dyn';
  }
  const typed = test.typedResult as JsonObject | undefined;
  const expectsError = 'evalError' in test;
  const expected =
    'value' in test
      ? decodeValue(test.value as JsonObject)
      : typed?.result
        ? decodeValue(typed.result as JsonObject)
        : test.checkOnly
          ? undefined
          : true;
  const expectedType = typed?.deducedType
    ? normaliseTypeName(decodeType(typed.deducedType as JsonObject))
    : undefined;

  let program;
  try {
    program = createEnvironment(variables, options).parse(String(test.expr));
  } catch (error) {
    return expectsError ? null : `parse error: ${(error as Error).message.split('\n')[0]}`;
  }
  if (!test.disableCheck) {
    const checked = program.check();
    if (!checked.valid)
      return expectsError ? null : `check error: ${checked.error?.message.split('\n')[0]}`;
    if (expectedType && normaliseTypeName(checked.type ?? '') !== expectedType) {
      return `deduced type ${checked.type}, expected ${expectedType}`;
    }
  }
  if (test.checkOnly) return null;
  let result: unknown;
  try {
    result = program(bindings);
  } catch (error) {
    return expectsError ? null : `evaluation error: ${(error as Error).message.split('\n')[0]}`;
  }
  if (expectsError) return `expected an error, got ${show(result)}`;
  return celEquals(expected, result) ? null : `got ${show(result)}, expected ${show(expected)}`;
}

function* flatten(suite: RawSuite, path: string): Generator<[string, JsonObject]> {
  for (const t of suite.tests ?? []) yield [path, t.original];
  for (const child of suite.suites ?? []) yield* flatten(child, `${path}/${child.name}`);
}

function countTests(suite: RawSuite): number {
  let n = suite.tests?.length ?? 0;
  for (const child of suite.suites ?? []) n += countTests(child);
  return n;
}
