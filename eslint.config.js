// One lint setup for the whole workspace. The dependency direction of the architecture is
// enforced here: web → (codegen →) topology-model (+ a type-only import of the runtime router),
// runtime → engine → (topology-model, log), runtime → kafka-listener → (log, kafka-protocol), and
// nothing imports apps/ — neither packages nor the examples, e2e tests and benchmarks, which use
// the packages as their users do. The log is the
// bottom layer: it depends on no other package of ours.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const appsByPath = {
  group: ['**/apps/**', '../../apps/*', '../../../apps/*'],
  message: 'Nothing imports from apps/: depend on a package instead.',
};

const embeddedInternals = {
  group: ['**/embedded/*', '!**/embedded/index.js'],
  message:
    'Only src/backends/embedded itself reaches into the embedded backend: use its index.js, or ' +
    'the Backend SPI (src/backend-spi.ts) and backends/shared (see packages/engine/CONTEXT.md).',
};
/** `.catch(() => …)`: a handler that does not even look at the error. */
const SILENT_CATCH =
  "CallExpression[callee.property.name='catch'][arguments.0.type='ArrowFunctionExpression'][arguments.0.params.length=0]";
/** Teardown: a close path may drop what fails while it tears down (with a comment saying why). */
const CLOSE_PATH = '/^(close|dispose|destroy|release|leave|abort)/i';
const appApi = {
  group: ['**/api.js'],
  message: 'A backend implements the Backend SPI (src/backend-spi.ts), not the application API.',
};
const kafkaInternals = {
  group: ['**/backends/kafka/*', '**/backends/kafka/**', '!**/backends/kafka/index.js'],
  message:
    'Outside src/backends the engine reaches the Kafka backend only through the Backend SPI ' +
    '(src/backend-spi.ts, backends/worker-clients.ts) or its index.js.',
};
const wholeLog = {
  name: '@streamwright/log',
  message:
    "Only the embedded backend loads the whole log; use '@streamwright/log/reader', '/encoder' " +
    "or '/assignors' (see packages/engine/CONTEXT.md).",
};

/**
 * @param {string[]} forbidden package names this layer must not import
 * @param {object[]} extra further forbidden import patterns
 * @param {{ paths?: object[] }} options forbidden exact import names
 */
const layer = (forbidden, extra = [], { paths = [] } = {}) => ({
  '@typescript-eslint/no-restricted-imports': [
    'error',
    {
      paths,
      patterns: [
        appsByPath,
        ...forbidden.map((name) => ({
          group: [name, `${name}/*`],
          message: `This layer must not depend on ${name} (see docs/ARCHITECTURE.md).`,
        })),
        ...extra,
      ],
    },
  ],
});

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/.turbo/**',
      '**/test-results/**',
      '**/playwright-report/**',
      '**/.streamwright/**',
      // programs examples/test/dsl-export.test.ts generates while it runs
      'examples/.dsl-export-out/**',
      // TypeScript generated from Kafka's message definitions (packages/kafka-protocol)
      '**/src/generated/**',
      '**/target/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Type-aware rules for source: a promise nobody awaits or catches is an error that vanishes;
    // a switch over a union either names every member or says `default:` on purpose.
    files: ['packages/*/src/**/*.ts', 'apps/*/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', '**/src/generated/**'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
    },
  },
  {
    // No silent catch outside close paths (a method, property or function named close…,
    // dispose…, destroy…, release…, leave… or abort…; each says why in a comment): the
    // web app's data fetching is to move to react-query (issue 26, part 4) and is not covered yet.
    files: ['packages/*/src/**/*.ts', 'apps/runtime/src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/src/generated/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: [
            SILENT_CATCH,
            `:not(MethodDefinition[key.name=${CLOSE_PATH}] ${SILENT_CATCH})`,
            `:not(Property[key.name=${CLOSE_PATH}] ${SILENT_CATCH})`,
            `:not(FunctionDeclaration[id.name=${CLOSE_PATH}] ${SILENT_CATCH})`,
          ].join(''),
          message:
            'An error dropped outside a close path vanishes: rethrow it, log it at WARN with ' +
            'context (and count it), or say why it is safe to drop in an eslint-disable comment.',
        },
      ],
    },
  },
  {
    files: ['packages/topology-model/**/*.ts'],
    rules: layer(['@streamwright/engine', '@streamwright/runtime', '@streamwright/web', 'react']),
  },
  {
    // translators between the document and code/text: browser-safe, below the engine
    files: ['packages/codegen/**/*.ts'],
    rules: layer(
      ['@streamwright/engine', '@streamwright/runtime', '@streamwright/web', 'react'],
      [{ group: ['node:*'], message: 'codegen runs in the browser: no Node built-ins.' }],
    ),
  },
  {
    // examples, e2e tests and benchmarks: any package, never an app's sources
    files: ['examples/**/*.{ts,mts,js,mjs}', 'e2e/**/*.{ts,mts,js,mjs}', 'bench/**/*.{js,mjs}'],
    rules: layer([]),
  },
  {
    // The protocol layer is framework-free and depends on no other package of ours.
    files: ['packages/kafka-protocol/**/*.{ts,mjs}'],
    rules: layer([
      '@streamwright/log',
      '@streamwright/codegen',
      '@streamwright/topology-model',
      '@streamwright/engine',
      '@streamwright/runtime',
      '@streamwright/web',
      'react',
    ]),
  },
  {
    // The Kafka listener serves the log over the protocol layer: those two, nothing above them.
    files: ['packages/kafka-listener/**/*.ts'],
    rules: layer([
      '@streamwright/codegen',
      '@streamwright/topology-model',
      '@streamwright/engine',
      '@streamwright/runtime',
      '@streamwright/web',
      'react',
    ]),
  },
  {
    files: ['packages/log/**/*.ts'],
    rules: layer([
      '@streamwright/topology-model',
      '@streamwright/engine',
      '@streamwright/runtime',
      '@streamwright/web',
      'react',
    ]),
  },
  {
    // The engine talks to a backend only through the Backend SPI (src/backend-spi.ts): outside
    // src/backends/embedded nothing reaches into the embedded backend but through its entry point,
    // and nothing loads the whole log (a worker must not; see packages/engine/CONTEXT.md).
    files: ['packages/engine/**/*.{ts,mjs}'],
    rules: layer(['@streamwright/runtime', '@streamwright/web', 'react'], [embeddedInternals]),
  },
  {
    // tests may open a log of their own to look into
    files: ['packages/engine/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: layer(
      ['@streamwright/runtime', '@streamwright/web', 'react'],
      [embeddedInternals, kafkaInternals],
      { paths: [wholeLog] },
    ),
  },
  {
    files: ['packages/engine/src/backends/embedded/**/*.ts'],
    rules: layer(['@streamwright/runtime', '@streamwright/web', 'react'], [appApi]),
  },
  {
    // The Kafka backend shares with the embedded one only what is in backends/shared.
    files: ['packages/engine/src/backends/{kafka,shared}/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: layer(
      ['@streamwright/runtime', '@streamwright/web', 'react'],
      [{ group: ['**/embedded/**', '**/embedded'], message: embeddedInternals.message }, appApi],
      { paths: [wholeLog] },
    ),
  },
  {
    files: ['apps/runtime/**/*.ts'],
    rules: layer(['@streamwright/web', 'react']),
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@streamwright/runtime',
              message: 'The web app may only import the runtime router *type*.',
              allowTypeImports: true,
            },
          ],
          patterns: [
            {
              group: ['@streamwright/engine', '@streamwright/engine/*'],
              message: 'web must not depend on the engine.',
            },
            {
              group: ['../../runtime/*', '../../../runtime/*', '**/apps/runtime/**'],
              message: 'Import the router type from @streamwright/runtime.',
            },
          ],
        },
      ],
    },
  },
);
