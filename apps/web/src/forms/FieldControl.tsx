// One typed control per config field. Text-like controls keep a local draft so that a number
// being typed ("1.", "-") or a half-written expression is not normalised under the cursor; the
// draft re-syncs when the value changes from outside (undo, import).
import { useEffect, useId, useState, type ReactNode } from 'react';
import type { Problem } from '../model/validation.js';
import { formatInput, parseInput, type FieldSpec } from './zod-fields.js';

export interface FieldControlProps {
  field: FieldSpec;
  value: unknown;
  onChange(value: unknown): void;
  problems: readonly Problem[];
  /** Stable prefix for data-testids, e.g. `config-filter1`. */
  testId: string;
  /** Variables a CEL field may use, shown under it. */
  celVariables?: Readonly<Record<string, string>>;
  label?: string;
}

const sameValue = (a: unknown, b: unknown) =>
  Object.is(a, b) || JSON.stringify(a) === JSON.stringify(b);

function functionName(value: unknown): string | null {
  return typeof value === 'object' &&
    value !== null &&
    typeof (value as { function?: unknown }).function === 'string'
    ? (value as { function: string }).function
    : null;
}

function useDraft(field: FieldSpec, value: unknown) {
  const [draft, setDraft] = useState(() => formatInput(field, value));
  useEffect(() => {
    // only replace the draft when it no longer denotes the stored value
    if (!sameValue(parseInput(field, draft), value)) setDraft(formatInput(field, value));
  }, [field, value]);
  return [draft, setDraft] as const;
}

/** Shows an expression's source line with a caret under the error column. */
export function CaretLine({
  source,
  line,
  column,
}: {
  source: string;
  line: number;
  column: number;
}) {
  const text = source.split('\n')[line - 1] ?? '';
  return (
    <pre className="sw-field__caret" aria-hidden="true">
      {text}
      {'\n'}
      {' '.repeat(Math.max(0, column - 1))}^
    </pre>
  );
}

export function FieldControl({
  field,
  value,
  onChange,
  problems,
  testId,
  celVariables,
  label,
}: FieldControlProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const [draft, setDraft] = useDraft(field, value);
  const invalid = problems.length > 0;
  const common = {
    id,
    'aria-invalid': invalid || undefined,
    'aria-describedby': invalid ? errorId : undefined,
    'data-testid': `${testId}-${field.key}`,
  };
  const onText = (raw: string) => {
    setDraft(raw);
    onChange(parseInput(field, raw));
  };
  const placeholder =
    field.defaultValue !== undefined
      ? `default: ${formatInput(field, field.defaultValue)}`
      : field.optional
        ? 'optional'
        : 'required';

  let control: ReactNode;
  switch (field.control.type) {
    case 'select': {
      const selected = value === undefined ? '' : String(value);
      control = (
        <select
          {...common}
          value={selected}
          onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
        >
          {(field.defaultValue === undefined || selected === '') && (
            <option value="">
              {field.defaultValue !== undefined
                ? `(default: ${String(field.defaultValue)})`
                : field.optional
                  ? '(not set)'
                  : '(choose)'}
            </option>
          )}
          {field.control.options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      );
      break;
    }
    case 'number':
      control = (
        <input
          {...common}
          type="number"
          inputMode={field.control.integer ? 'numeric' : 'decimal'}
          step={field.control.integer ? 1 : 'any'}
          min={field.control.min}
          max={field.control.max}
          value={draft}
          placeholder={placeholder}
          onChange={(e) => onText(e.target.value)}
        />
      );
      break;
    case 'boolean':
      // optional booleans have three states: unset (Kafka Streams' default), true, false
      control = field.optional ? (
        <select
          {...common}
          value={value === undefined ? '' : String(value)}
          onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value === 'true')}
        >
          <option value="">(default)</option>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      ) : (
        <input
          {...common}
          type="checkbox"
          checked={value === true}
          onChange={(e) => onChange(e.target.checked)}
        />
      );
      break;
    case 'function':
      control = (
        <input
          {...common}
          type="text"
          spellCheck={false}
          value={draft}
          placeholder="name of a registered TypeScript function"
          onChange={(e) => onText(e.target.value)}
        />
      );
      break;
    case 'json':
      control = (
        <textarea
          {...common}
          className="sw-field__cel"
          rows={4}
          spellCheck={false}
          value={draft}
          placeholder="JSON"
          onChange={(e) => onText(e.target.value)}
        />
      );
      break;
    case 'cel':
      control = (
        <textarea
          {...common}
          className="sw-field__cel"
          rows={3}
          spellCheck={false}
          value={draft}
          placeholder={field.optional ? 'optional CEL expression' : 'CEL expression'}
          onChange={(e) => onText(e.target.value)}
        />
      );
      break;
    default:
      control = (
        <input
          {...common}
          type="text"
          spellCheck={false}
          value={draft}
          placeholder={placeholder}
          onChange={(e) => onText(e.target.value)}
        />
      );
  }

  return (
    <div className={`sw-field${invalid ? ' is-invalid' : ''}`}>
      <label htmlFor={id}>
        {label ?? field.label}
        {!field.optional && (
          <span className="sw-field__required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      {control}
      {field.control.type === 'cel' && functionName(value) !== null && (
        <p className="sw-field__hint" data-testid={`${testId}-${field.key}-function`}>
          Runs the TypeScript function <code>{functionName(value)}</code> (provided by the program
          that registered it); typing a CEL expression replaces it.
        </p>
      )}
      {field.control.type === 'cel' && celVariables && (
        <p className="sw-field__hint">
          Variables:{' '}
          {Object.entries(celVariables).map(([name, type], i) => (
            <span key={name}>
              {i > 0 && ', '}
              <code>{name}</code> <span className="sw-muted">({type})</span>
            </span>
          ))}
        </p>
      )}
      {invalid && (
        <div
          id={errorId}
          className="sw-field__errors"
          role="alert"
          data-testid={`${testId}-${field.key}-error`}
        >
          {problems.map((p, i) => (
            <div key={i} className="sw-field__error">
              {p.position ? `Line ${p.position.line}, column ${p.position.column}: ` : ''}
              {p.message}
              {p.position && typeof value === 'string' && (
                <CaretLine source={value} line={p.position.line} column={p.position.column} />
              )}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
