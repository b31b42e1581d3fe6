// A union field edited as a choice: one select offers the union's names (built-in serdes,
// "record" / "wallclock") and its object alternatives (each window kind, an Avro serde, a CEL
// timestamp extractor); a chosen alternative's fields are edited below it as typed controls, so
// a window is kind + size + advance + grace + gap fields rather than a JSON textarea.
import { useId, type ReactNode } from 'react';
import { FieldControl, type FieldControlProps } from './FieldControl.js';
import { problemsBelow } from './StructuredControls.js';
import { choiceOf, defaultConfigOf, type ChoiceShape } from './zod-fields.js';

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/** The config value for choosing `id`: the name itself, or a new object of that shape. */
function valueFor(shapes: readonly ChoiceShape[], id: string): unknown {
  if (id === '') return undefined;
  const shape = shapes.find((s) => s.id === id);
  if (!shape) return id;
  const value: Record<string, unknown> = defaultConfigOf(shape.fields);
  if (shape.discriminator) value[shape.discriminator.key] = shape.discriminator.value;
  return value;
}

export interface ChoiceControlProps extends FieldControlProps {
  /**
   * Renders one field of the chosen shape (ConfigField passes itself, so an object field such as
   * an Avro serde's schema registry gets its typed editor; plain FieldControl by default).
   */
  renderField?: (props: FieldControlProps) => ReactNode;
}

export function ChoiceControl(props: ChoiceControlProps) {
  const { field, value, onChange, problems, testId, celVariables } = props;
  const Field = props.renderField ?? FieldControl;
  const id = useId();
  if (field.control.type !== 'select') return null;
  const { options, shapes = [] } = field.control;
  const chosen = choiceOf(field.control, value);
  const shape = shapes.find((s) => s.id === chosen);
  const base = `${testId}-${field.key}`;
  const record = asRecord(value);
  // problems about the field itself; those below it belong to the chosen shape's fields
  const own = problems.filter(
    (p) => !shape || !shape.fields.some((f) => problemsBelow([p], field.key, f.key).length > 0),
  );
  return (
    <div className={`sw-field sw-choice${own.length > 0 ? ' is-invalid' : ''}`}>
      <label htmlFor={id}>
        {field.label}
        {!field.optional && (
          <span className="sw-field__required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      <select
        id={id}
        data-testid={base}
        aria-invalid={own.length > 0 || undefined}
        value={chosen}
        onChange={(e) => onChange(valueFor(shapes, e.target.value))}
      >
        {(field.defaultValue === undefined || chosen === '') && (
          <option value="">
            {field.defaultValue !== undefined
              ? `(default: ${String(field.defaultValue)})`
              : field.optional
                ? '(not set)'
                : '(choose)'}
          </option>
        )}
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
        {shapes.map((s) => (
          <option key={s.id} value={s.id}>
            {s.label}
          </option>
        ))}
      </select>
      {shape && (
        <div className="sw-choice__fields" data-testid={`${base}-fields`}>
          {shape.fields.map((sub) => (
            <Field
              key={`${shape.id}.${sub.key}`}
              field={sub}
              value={record[sub.key]}
              problems={problemsBelow(problems, field.key, sub.key)}
              testId={base}
              {...(celVariables ? { celVariables } : {})}
              onChange={(v) => {
                const next = { ...record };
                if (v === undefined) delete next[sub.key];
                else next[sub.key] = v;
                onChange(next);
              }}
            />
          ))}
        </div>
      )}
      {own.length > 0 && (
        <div className="sw-field__errors" role="alert" data-testid={`${base}-error`}>
          {own.map((p, i) => (
            <div key={i} className="sw-field__error">
              {p.message}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
