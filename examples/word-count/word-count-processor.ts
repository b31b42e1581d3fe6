// The seed's word-count Processor (Kafka's WordCountProcessorDemo, Processor API): process()
// counts words into the key-value store "Counts"; a punctuation every second forwards every
// (word, count) in the store, in key order.
import type {
  KeyValueStore,
  Processor,
  ProcessorContext,
  ProcessorRegistry,
  PunctuationType,
  StreamRecord,
} from '@streamwright/engine';

export const COUNTS_STORE = 'Counts';

export class WordCountProcessor implements Processor<string, string, string, string> {
  #store: KeyValueStore<string, number> | null = null;

  constructor(
    private readonly intervalMs = 1000,
    private readonly type: PunctuationType = 'WALL_CLOCK_TIME',
  ) {}

  init(context: ProcessorContext<string, string>): void {
    this.#store = context.getStateStore<KeyValueStore<string, number>>(COUNTS_STORE);
    context.schedule(this.intervalMs, this.type, (timestamp) => {
      for (const { key, value } of this.#store!.all()) {
        context.forward({ key, value: String(value), timestamp, headers: {} });
      }
    });
  }

  process(record: StreamRecord<string, string>): void {
    for (const word of splitWords(record.value.toLowerCase())) {
      const old = this.#store!.get(word);
      this.#store!.put(word, old === null ? 1 : old + 1);
    }
  }
}

/** Java's `split("\\W+")`: a leading separator gives an empty first word, trailing empties are dropped. */
export function splitWords(text: string): string[] {
  const words = text.split(/[^A-Za-z0-9_]+/);
  while (words.length > 0 && words[words.length - 1] === '') words.pop();
  return words;
}

/**
 * What an operator registers when starting the runtime (`streamwright serve --processors
 * <module>`): processor names, as topology documents refer to them, → factories. `params` come
 * from the node's `config.params`.
 */
export const processors: ProcessorRegistry = {
  WordCountProcessor: (params) =>
    new WordCountProcessor(
      typeof params['intervalMs'] === 'number' ? params['intervalMs'] : 1000,
      params['punctuation'] === 'STREAM_TIME' ? 'STREAM_TIME' : 'WALL_CLOCK_TIME',
    ),
};
