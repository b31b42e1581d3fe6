import { describe, expect, it } from 'vitest';
import { nodeKinds, type NodeKind } from '@streamwright/topology-model';
import { choiceOf, defaultConfig, fieldsOf, labelFor, parseInput } from './zod-fields.js';

describe('config forms derived from the node kinds', () => {
  it('gives the source kind a text topic, serde selects with their defaults and an offset reset select', () => {
    const fields = fieldsOf(nodeKinds.source.config);
    // looked up by key: topology-model may add source options (several topics, a pattern)
    const field = (key: string) => fields.find((f) => f.key === key)!;
    expect(field('topic').control).toEqual({ type: 'text' });
    for (const [key, defaultValue] of [
      ['keySerde', 'string'],
      ['valueSerde', 'json'],
    ] as const) {
      const serde = field(key);
      expect(serde).toMatchObject({ optional: true, defaultValue, control: { type: 'select' } });
      expect(serde.control.type === 'select' && serde.control.options).toEqual(
        expect.arrayContaining(['string', 'json', 'bytes', 'long', 'integer', 'double']),
      );
    }
    // No default of its own: unset, the application's auto.offset.reset applies.
    expect(field('offsetReset')).toMatchObject({
      optional: true,
      control: { type: 'select', options: ['earliest', 'latest'] },
    });
    expect(field('offsetReset').defaultValue).toBeUndefined();
  });

  it('marks CEL expressions, including the optional generator key', () => {
    const [expression] = fieldsOf(nodeKinds.filter.config);
    expect(expression).toMatchObject({
      key: 'expression',
      label: 'Expression',
      control: { type: 'cel' },
      optional: false,
    });
    const generator = fieldsOf(nodeKinds.generator.config);
    expect(generator.find((f) => f.key === 'key')).toMatchObject({
      control: { type: 'cel' },
      optional: true,
    });
    expect(generator.find((f) => f.key === 'value')).toMatchObject({
      control: { type: 'cel' },
      optional: false,
    });
    expect(generator.find((f) => f.key === 'ratePerSecond')).toMatchObject({
      label: 'Rate per second',
      control: { type: 'number', integer: false, min: 0, max: 1_000_000 },
    });
  });

  it('derives a typed form for every kind of the walking skeleton, without raw JSON', () => {
    const v1: NodeKind[] = [
      'generator',
      'source',
      'filter',
      'mapValues',
      'peek',
      'sink',
      'groupByKey',
      'count',
      'toStream',
    ];
    for (const kind of v1) {
      for (const field of fieldsOf(nodeKinds[kind].config))
        expect(field.control.type, `${kind}.${field.key}`).not.toBe('json');
    }
  });

  it('starts new nodes with the schema defaults only', () => {
    expect(defaultConfig(nodeKinds.sink.config)).toEqual({
      keySerde: 'string',
      valueSerde: 'json',
    });
    expect(defaultConfig(nodeKinds.filter.config)).toEqual({});
  });

  it('turns empty inputs into absent keys and numbers into numbers', () => {
    const [rate] = fieldsOf(nodeKinds.generator.config).filter((f) => f.key === 'ratePerSecond');
    expect(parseInput(rate!, '')).toBeUndefined();
    expect(parseInput(rate!, '12.5')).toBe(12.5);
    expect(parseInput(rate!, 'fast')).toBe('fast');
    expect(labelFor('keySerde')).toBe('Key serde');
  });
});

describe('structured fields get row editors instead of raw JSON', () => {
  it("edits a split's branches as rows of name and CEL predicate, its default branch as an object", () => {
    const fields = fieldsOf(nodeKinds.split.config);
    const branches = fields.find((f) => f.key === 'branches')!;
    expect(branches.control.type).toBe('list');
    if (branches.control.type !== 'list') return;
    expect(branches.control.fields!.map((f) => [f.key, f.control.type, f.optional])).toEqual([
      ['name', 'text', true],
      ['predicate', 'cel', false],
    ]);
    const def = fields.find((f) => f.key === 'defaultBranch')!;
    expect(def).toMatchObject({ optional: true, control: { type: 'object' } });
  });

  it("edits a cogroup's inputs as port and aggregator rows, a processor's stores as a list of names and its params as entries", () => {
    const inputs = fieldsOf(nodeKinds.cogroup.config).find((f) => f.key === 'inputs')!;
    expect(inputs.control.type === 'list' && inputs.control.fields!.map((f) => f.key)).toEqual([
      'port',
      'aggregator',
    ]);
    // A windowed cogroup's window, merger and retention (CogroupedKStream#windowedBy).
    const cogroup = fieldsOf(nodeKinds.cogroup.config);
    expect(
      ['window', 'merger', 'retentionMs'].map((k) => {
        const f = cogroup.find((x) => x.key === k)!;
        return [k, f.control.type, f.optional];
      }),
    ).toEqual([
      [
        'window',
        fieldsOf(nodeKinds.windowedBy.config).find((f) => f.key === 'window')!.control.type,
        true,
      ],
      ['merger', 'cel', true],
      ['retentionMs', 'number', true],
    ]);
    const process = fieldsOf(nodeKinds.process.config);
    expect(process.find((f) => f.key === 'stores')!.control).toEqual({
      type: 'list',
      item: { type: 'text' },
    });
    expect(process.find((f) => f.key === 'params')!.control).toEqual({ type: 'entries' });
  });

  it.each([
    'table',
    'toTable',
    'tableFilter',
    'tableFilterNot',
    'tableMapValues',
    'tableTableJoin',
    'foreignKeyJoin',
    'count',
    'reduce',
    'aggregate',
    'cogroup',
    'tableCount',
    'tableReduce',
    'tableAggregate',
  ] as const)(
    'gives %s an optional versioned-store group (history retention, segment interval)',
    (kind) => {
      const versioned = fieldsOf(nodeKinds[kind].config).find((f) => f.key === 'versioned');
      expect(versioned).toMatchObject({ optional: true, control: { type: 'object' } });
      const inner = versioned?.control.type === 'object' ? versioned.control.fields : [];
      expect(inner.map((f) => [f.key, f.optional])).toEqual([
        ['historyRetentionMs', false],
        ['segmentIntervalMs', true],
      ]);
    },
  );

  it('gives windowed aggregations no versioned store (they materialize window or session stores)', () => {
    for (const kind of ['windowedCount', 'windowedReduce', 'windowedAggregate'] as const)
      expect(fieldsOf(nodeKinds[kind].config).some((f) => f.key === 'versioned')).toBe(false);
  });
});

describe('unions with object alternatives are choices, not JSON', () => {
  it("edits a windowedBy's window as a kind select and that kind's millisecond fields", () => {
    const window = fieldsOf(nodeKinds.windowedBy.config).find((f) => f.key === 'window')!;
    expect(window.control.type).toBe('select');
    if (window.control.type !== 'select') return;
    const shapes = window.control.shapes ?? [];
    expect(shapes.map((s) => [s.id, s.fields.map((f) => [f.key, f.control.type])])).toEqual([
      [
        'tumbling',
        [
          ['sizeMs', 'number'],
          ['graceMs', 'number'],
        ],
      ],
      [
        'hopping',
        [
          ['sizeMs', 'number'],
          ['advanceMs', 'number'],
          ['graceMs', 'number'],
        ],
      ],
      [
        'sliding',
        [
          ['timeDifferenceMs', 'number'],
          ['graceMs', 'number'],
        ],
      ],
      [
        'session',
        [
          ['gapMs', 'number'],
          ['graceMs', 'number'],
        ],
      ],
    ]);
    expect(shapes[1]!.discriminator).toEqual({ key: 'type', value: 'hopping' });
    expect(choiceOf(window.control, { type: 'session', gapMs: 5 })).toBe('session');
    expect(choiceOf(window.control, undefined)).toBe('');
  });

  it("offers a source's timestamp extractor as record, wallclock or a CEL expression", () => {
    const extractor = fieldsOf(nodeKinds.source.config).find(
      (f) => f.key === 'timestampExtractor',
    )!;
    expect(extractor.control).toMatchObject({
      type: 'select',
      options: ['record', 'wallclock'],
      shapes: [{ id: 'expression', label: 'CEL expression', fields: [{ key: 'expression' }] }],
    });
    if (extractor.control.type !== 'select') return;
    expect(choiceOf(extractor.control, 'wallclock')).toBe('wallclock');
    expect(choiceOf(extractor.control, { expression: 'value.ts' })).toBe('expression');
  });

  it('offers an Avro serde next to the built-in serde names', () => {
    const serde = fieldsOf(nodeKinds.sink.config).find((f) => f.key === 'valueSerde')!;
    expect(serde.control).toMatchObject({
      type: 'select',
      shapes: [{ id: 'avro', discriminator: { key: 'type', value: 'avro' } }],
    });
    if (serde.control.type !== 'select') return;
    expect(choiceOf(serde.control, { type: 'avro', schema: 'string' })).toBe('avro');
    expect(choiceOf(serde.control, 'json')).toBe('json');
    // The schema registry's settings are typed fields under the Avro choice.
    const registry = serde.control.shapes![0]!.fields.find((f) => f.key === 'registry')!;
    expect(registry.optional).toBe(true);
    expect(registry.control).toMatchObject({
      type: 'object',
      fields: [
        { key: 'url', control: { type: 'text' } },
        {
          key: 'subjectNameStrategy',
          control: {
            type: 'select',
            options: ['TopicNameStrategy', 'RecordNameStrategy', 'TopicRecordNameStrategy'],
          },
        },
        { key: 'autoRegisterSchemas', control: { type: 'boolean' } },
        { key: 'useLatestVersion', control: { type: 'boolean' } },
      ],
    });
  });
});
