// The same word count written with the DSL: StreamsBuilder#addStateStore plus KStream#process.
import {
  Consumed,
  Produced,
  Serdes,
  Stores,
  StreamsBuilder,
  type BuiltTopology,
} from '@streamwright/engine';
import { COUNTS_STORE, WordCountProcessor } from './word-count-processor.js';

export function wordCount(): BuiltTopology {
  const builder = new StreamsBuilder();
  builder.addStateStore(
    Stores.keyValueStoreBuilder(
      Stores.inMemoryKeyValueStore(COUNTS_STORE),
      Serdes.String(),
      Serdes.Integer(),
    ),
  );
  builder
    .stream('lines', Consumed.with(Serdes.String(), Serdes.String()))
    .process(function WordCount() {
      return new WordCountProcessor();
    }, COUNTS_STORE)
    .to('word-counts', Produced.with(Serdes.String(), Serdes.String()));
  return builder.build({ applicationId: 'word-count' });
}
